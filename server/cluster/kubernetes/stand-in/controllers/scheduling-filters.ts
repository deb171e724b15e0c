import type { INode } from "kubernetes-models/v1/Node";
import type { IPod } from "kubernetes-models/v1/Pod";
import { parseQuantity } from "../../quantity.ts";

/**
 * The default scheduler's filter plugins that matter for GPU placement, run in its order
 * (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit); a node fails at the first
 * plugin that rejects it, and the reasons are the plugins' own strings.
 */
type Toleration = NonNullable<NonNullable<IPod["spec"]>["tolerations"]>[number];
type Taint = { key: string; value?: string; effect: string };
type Requirement = { key: string; operator: string; values?: string[] };

export function tolerates(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (!t.key) return t.operator === "Exists";
    if (t.key !== taint.key) return false;
    return t.operator === "Exists" || (t.value ?? "") === (taint.value ?? "");
  });
}

function isReady(node: INode): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** A node's taints, plus the not-ready taint the node lifecycle controller would have added. */
function taintsOf(node: INode): Taint[] {
  const taints = [...((node.spec?.taints ?? []) as Taint[])];
  if (!isReady(node) && !taints.some((t) => t.key === "node.kubernetes.io/not-ready")) taints.push({ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" });
  return taints;
}

function matchesExpression(req: Requirement, value: string | undefined): boolean {
  switch (req.operator) {
    case "In":
      return value !== undefined && (req.values ?? []).includes(value);
    case "NotIn":
      return value === undefined || !(req.values ?? []).includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
      return value !== undefined && Number(value) > Number(req.values?.[0]);
    case "Lt":
      return value !== undefined && Number(value) < Number(req.values?.[0]);
    default:
      return false;
  }
}

export function matchesNodeAffinity(pod: IPod, node: INode): boolean {
  const labels = node.metadata?.labels ?? {};
  const selector = pod.spec?.nodeSelector ?? {};
  if (!Object.entries(selector).every(([k, v]) => labels[k] === v)) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  // Terms are ORed; the expressions within a term are ANDed.
  return required.nodeSelectorTerms.some(
    (term) =>
      (term.matchExpressions ?? []).every((e) => matchesExpression(e, labels[e.key])) &&
      (term.matchFields ?? []).every((e) => matchesExpression(e, e.key === "metadata.name" ? node.metadata?.name : undefined)) &&
      ((term.matchExpressions ?? []).length > 0 || (term.matchFields ?? []).length > 0),
  );
}

/** What a pod asks for: the sum over its containers, init containers counting as their maximum. */
export function podRequests(pod: IPod): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const c of pod.spec?.containers ?? []) {
    for (const [r, q] of Object.entries(c.resources?.requests ?? {})) sum[r] = (sum[r] ?? 0) + parseQuantity(q as string);
  }
  for (const c of pod.spec?.initContainers ?? []) {
    for (const [r, q] of Object.entries(c.resources?.requests ?? {})) sum[r] = Math.max(sum[r] ?? 0, parseQuantity(q as string));
  }
  return sum;
}

/** Reasons `node` cannot take `pod` given the pods already bound to it; empty when it fits. */
export function filterNode(pod: IPod, node: INode, boundPods: IPod[]): string[] {
  const tolerations = pod.spec?.tolerations;
  if (node.spec?.unschedulable && !tolerates(tolerations, { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" })) {
    return ["node(s) were unschedulable"];
  }
  const untolerated = taintsOf(node).find((t) => (t.effect === "NoSchedule" || t.effect === "NoExecute") && !tolerates(tolerations, t));
  if (untolerated) return [`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ""}}`];
  if (!matchesNodeAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  const allocatable = node.status?.allocatable ?? {};
  const used: Record<string, number> = {};
  for (const p of boundPods) for (const [r, q] of Object.entries(podRequests(p))) used[r] = (used[r] ?? 0) + q;
  const reasons: string[] = [];
  if (allocatable.pods !== undefined && boundPods.length + 1 > parseQuantity(allocatable.pods as string)) reasons.push("Too many pods");
  for (const [r, want] of Object.entries(podRequests(pod))) {
    if (want === 0) continue;
    const free = parseQuantity(allocatable[r] as string | undefined) - (used[r] ?? 0);
    if (want > free + 1e-9) reasons.push(`Insufficient ${r}`);
  }
  return reasons;
}

/** The FitError message: `0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu.` */
export function unschedulableMessage(nodeCount: number, reasonsByNode: string[][]): string {
  if (nodeCount === 0) return "no nodes available to schedule pods";
  const histogram = new Map<string, number>();
  for (const reasons of reasonsByNode) for (const r of reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
  const parts = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
  return `0/${nodeCount} nodes are available: ${parts.join(", ")}.`;
}

/** What the scorer assumes a container without requests uses (the scheduler's non-zero defaults). */
const SCORING_DEFAULTS: Record<string, number> = { cpu: 0.1, memory: 200 * 2 ** 20 };

function scoringRequests(pod: IPod): Record<string, number> {
  const r = podRequests(pod);
  return { ...r, cpu: r.cpu || SCORING_DEFAULTS.cpu!, memory: r.memory || SCORING_DEFAULTS.memory! };
}

/**
 * Scores a feasible node as the default plugins roughly do: least allocated (the share of each
 * requested resource left after placing the pod) minus a spread penalty for pods of the same
 * owner already there (default pod topology spreading).
 */
export function nodeScore(pod: IPod, node: INode, boundPods: IPod[]): number {
  const allocatable = node.status?.allocatable ?? {};
  const used: Record<string, number> = {};
  for (const p of boundPods) for (const [r, q] of Object.entries(scoringRequests(p))) used[r] = (used[r] ?? 0) + q;
  const wanted = scoringRequests(pod);
  let free = 0;
  for (const [r, q] of Object.entries(wanted)) {
    const cap = parseQuantity(allocatable[r] as string | undefined);
    if (cap > 0) free += (cap - (used[r] ?? 0) - q) / cap;
  }
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller)?.uid;
  const siblings = owner ? boundPods.filter((p) => p.metadata?.ownerReferences?.some((o) => o.uid === owner)).length : 0;
  return free / Object.keys(wanted).length - siblings;
}
