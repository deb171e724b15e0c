import type { INode } from "kubernetes-models/v1/Node";
import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import type { Controller } from "./controller.ts";

export type Node = INode & KubeObject;

export const MIG_CONFIG_LABEL = "nvidia.com/mig.config";
export const MIG_STATE_LABEL = "nvidia.com/mig.config.state";
const PAUSED = "paused-for-mig-change";
/** The operator runs its MIG manager only where GPU feature discovery found MIG-capable GPUs. */
const DEPLOYED = "nvidia.com/gpu.deploy.mig-manager";

export type MigApplyResult = { ok: true } | { ok: false; reason: string };

/**
 * Reconfigures a node's GPUs to a named mig-parted layout. The built-in ConfigMapMigApplier does
 * it from the operator's ConfigMap; Kule's simulator can plug in its own.
 */
export interface MigApplier {
  apply(node: Node, configName: string, api: ClusterApi): Promise<MigApplyResult>;
}

export interface MigOutcome {
  config: string;
  state: "pending" | "success" | "failed";
  reason?: string;
  at: Date;
}

/**
 * The GPU Operator's MIG manager: when a node's `nvidia.com/mig.config` label names a layout it
 * has not applied, it marks the node `nvidia.com/mig.config.state=pending`, pauses the other GPU
 * operands (their `nvidia.com/gpu.deploy.*` labels), asks the applier, then sets `success` or
 * `failed` and resumes the operands. An applier that never settles leaves the node pending, as
 * stuck real nodes are; a node without `nvidia.com/gpu.deploy.mig-manager=true` (no MIG-capable
 * GPU) has no manager, and its label is silently ignored.
 */
export class MigManager implements Controller {
  readonly name = "nvidia-mig-manager";
  private readonly applied = new Map<string, string>();
  private readonly inFlight = new Set<string>();
  private readonly outcomes = new Map<string, MigOutcome>();
  private off?: () => void;
  private stopped = false;

  constructor(private readonly applier: MigApplier) {}

  /** The last outcome per node, with the reason a failure gave (the real manager only logs it). */
  outcome(nodeName: string): MigOutcome | undefined {
    return this.outcomes.get(nodeName);
  }

  start(api: ClusterApi): void {
    this.stopped = false;
    this.off = api.onChange(
      ["Node"],
      (e) => {
        if (e.type === "DELETED") this.applied.delete(e.object.metadata.name!);
        else this.consider(api, e.object.metadata.name!);
      },
      this.name,
    );
    for (const n of api.list<Node>("Node")) this.consider(api, n.metadata.name!);
  }

  stop(): void {
    this.stopped = true;
    this.off?.();
  }

  private consider(api: ClusterApi, nodeName: string): void {
    const node = api.get<Node>("Node", undefined, nodeName);
    const wanted = node?.metadata.labels?.[MIG_CONFIG_LABEL];
    if (!node || node.metadata.labels?.[DEPLOYED] !== "true") return;
    if (!wanted || this.inFlight.has(nodeName) || this.applied.get(nodeName) === wanted) return;
    this.reconfigure(api, node, wanted).catch((e) => {
      this.inFlight.delete(nodeName);
      api.reportError(this.name, e);
    });
  }

  private async reconfigure(api: ClusterApi, node: Node, config: string): Promise<void> {
    const nodeName = node.metadata.name!;
    this.inFlight.add(nodeName);
    this.applied.set(nodeName, config);
    const paused: string[] = [];
    this.outcomes.set(nodeName, { config, state: "pending", at: new Date() });
    api.mutate<Node>("Node", undefined, nodeName, (n) => {
      const labels = (n.metadata.labels ??= {});
      labels[MIG_STATE_LABEL] = "pending";
      for (const [k, v] of Object.entries(labels)) {
        if (k.startsWith("nvidia.com/gpu.deploy.") && k !== DEPLOYED && v === "true") {
          labels[k] = PAUSED;
          paused.push(k);
        }
      }
    });
    let result: MigApplyResult;
    try {
      result = await this.applier.apply(node, config, api);
    } catch (e) {
      result = { ok: false, reason: (e as Error).message };
    }
    this.inFlight.delete(nodeName);
    if (this.stopped) return;
    this.outcomes.set(nodeName, { config, state: result.ok ? "success" : "failed", reason: result.ok ? undefined : result.reason, at: new Date() });
    // The real manager only logs why; this one also records it as an event on the node, as the
    // node condition its maintainers suggested would (NVIDIA/mig-parted#189), so drivers can show it.
    if (!result.ok) api.recordEvent(node, "Warning", "MigConfigFailed", `Applying MIG config "${config}" failed: ${result.reason}`, "nvidia-mig-manager", nodeName);
    api.mutate<Node>("Node", undefined, nodeName, (n) => {
      const labels = (n.metadata.labels ??= {});
      labels[MIG_STATE_LABEL] = result.ok ? "success" : "failed";
      for (const k of paused) if (labels[k] === PAUSED) labels[k] = "true";
    });
    // The label may have moved on while this layout was being applied.
    this.consider(api, nodeName);
  }
}
