import { errors } from "./status-error.ts";
import type { KubeObject } from "./kube-object.ts";
import type { ResourceKind } from "./resource-kinds.ts";

/** One requirement of a label selector, as apimachinery's labels.Parse yields it. */
export interface LabelRequirement {
  key: string;
  op: "=" | "!=" | "in" | "notin" | "exists" | "!";
  values: string[];
}

export type LabelSelector = LabelRequirement[];

/**
 * Parses `a=b,c!=d,e in (f,g),h notin (i),j,!k`. Commas inside parentheses belong to the set,
 * so the string is split at top-level commas only.
 */
export function parseLabelSelector(raw: string | undefined): LabelSelector {
  if (!raw || !raw.trim()) return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "(") depth++;
    else if (raw[i] === ")") depth--;
    else if (raw[i] === "," && depth === 0) {
      parts.push(raw.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(raw.slice(start));
  return parts.map((p) => parseRequirement(p.trim(), raw));
}

function parseRequirement(part: string, raw: string): LabelRequirement {
  const set = /^([^\s!=(),]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
  if (set) return { key: set[1]!, op: set[2] as "in" | "notin", values: set[3]!.split(",").map((v) => v.trim()).filter(Boolean) };
  const cmp = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(part);
  if (cmp) return { key: cmp[1]!, op: cmp[2] === "!=" ? "!=" : "=", values: [cmp[3]!] };
  const not = /^!\s*([^\s!=(),]+)$/.exec(part);
  if (not) return { key: not[1]!, op: "!", values: [] };
  if (/^[^\s!=(),]+$/.test(part)) return { key: part, op: "exists", values: [] };
  throw errors.badRequest(`unable to parse requirement: found '${part}', expected: ',' or 'end of string' in selector "${raw}"`);
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return selector.every((r) => {
    const has = Object.hasOwn(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case "=":
        return has && v === r.values[0];
      case "!=":
        return !has || v !== r.values[0];
      case "in":
        return has && r.values.includes(v!);
      case "notin":
        return !has || !r.values.includes(v!);
      case "exists":
        return has;
      case "!":
        return !has;
    }
  });
}

/** A metav1.LabelSelector (matchLabels/matchExpressions), as Deployments and ReplicaSets carry. */
export interface SelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function selectorFromObject(s: SelectorObject | undefined): LabelSelector {
  const reqs: LabelSelector = Object.entries(s?.matchLabels ?? {}).map(([key, v]) => ({ key, op: "=" as const, values: [v] }));
  for (const e of s?.matchExpressions ?? []) {
    const op = { In: "in", NotIn: "notin", Exists: "exists", DoesNotExist: "!" }[e.operator] as LabelRequirement["op"] | undefined;
    if (op) reqs.push({ key: e.key, op, values: e.values ?? [] });
  }
  return reqs;
}

export interface FieldRequirement {
  path: string;
  negate: boolean;
  value: string;
}

/** Fields each kind can be selected by, beyond metadata.name and metadata.namespace. */
const FIELDS: Record<string, string[]> = {
  Pod: ["spec.nodeName", "spec.schedulerName", "spec.serviceAccountName", "spec.restartPolicy", "status.phase", "status.podIP", "status.nominatedNodeName"],
  Node: ["spec.unschedulable"],
  Event: ["involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"],
  Secret: ["type"],
  Namespace: ["status.phase"],
  ReplicaSet: ["status.replicas"],
};

export function parseFieldSelector(raw: string | undefined, kind: ResourceKind): FieldRequirement[] {
  if (!raw || !raw.trim()) return [];
  const allowed = ["metadata.name", "metadata.namespace", ...(FIELDS[kind.kind] ?? [])];
  return raw.split(",").map((part) => {
    const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
    if (!m) throw errors.badRequest(`invalid selector: '${raw}'; can't understand '${part}'`);
    if (!allowed.includes(m[1]!)) {
      throw errors.badRequest(`field label not supported: ${m[1]}`);
    }
    return { path: m[1]!, negate: m[2] === "!=", value: m[3]! };
  });
}

export function matchesFields(reqs: FieldRequirement[], obj: KubeObject): boolean {
  return reqs.every((r) => {
    const actual = fieldValue(obj, r.path);
    return r.negate ? actual !== r.value : actual === r.value;
  });
}

/** Field values compare as strings; a missing field selects like "" (so `spec.nodeName=` finds unbound pods). */
function fieldValue(obj: KubeObject, path: string): string {
  if (path === "source") return String((obj.source as { component?: string } | undefined)?.component ?? "");
  let cur: unknown = obj;
  for (const seg of path.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[seg];
  if (path === "spec.unschedulable" && cur === undefined) return "false";
  return cur === undefined || cur === null ? "" : String(cur);
}
