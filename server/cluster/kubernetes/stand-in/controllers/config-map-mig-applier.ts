import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IPod } from "kubernetes-models/v1/Pod";
import type { KubeObject } from "../kube-object.ts";
import type { ClusterApi } from "./cluster-api.ts";
import type { MigApplier, MigApplyResult, Node } from "./mig-manager.ts";
import { layoutTotals, parseMigPartedConfig } from "./mig-parted-config.ts";
import { isPodActive } from "./workload-helpers.ts";

export interface ConfigMapMigApplierOptions {
  /** Where the operator's mig-parted config lives (the GPU Operator's defaults). */
  namespace?: string;
  name?: string;
  key?: string;
  /** How long the reconfiguration takes. */
  delayMs?: number;
}

/**
 * Applies a layout from the mig-parted ConfigMap and advertises the result as the device plugin
 * would: with the `mixed` strategy one `nvidia.com/mig-<profile>` resource per profile beside
 * `nvidia.com/gpu` for GPUs left whole; with `single`, every instance as `nvidia.com/gpu`. Like
 * the real manager it refuses while GPU pods still run on the node.
 */
export class ConfigMapMigApplier implements MigApplier {
  private readonly o: Required<ConfigMapMigApplierOptions>;

  constructor(options: ConfigMapMigApplierOptions = {}) {
    this.o = { namespace: "gpu-operator", name: "default-mig-parted-config", key: "config.yaml", delayMs: 20, ...options };
  }

  async apply(node: Node, configName: string, api: ClusterApi): Promise<MigApplyResult> {
    await new Promise((r) => setTimeout(r, this.o.delayMs));
    const nodeName = node.metadata.name!;
    const cm = api.get<IConfigMap & KubeObject>("ConfigMap", this.o.namespace, this.o.name);
    const text = cm?.data?.[this.o.key];
    if (!text) return { ok: false, reason: `no ${this.o.key} in ConfigMap ${this.o.namespace}/${this.o.name}` };
    const current = api.get<Node>("Node", undefined, nodeName);
    if (!current) return { ok: false, reason: `node ${nodeName} is gone` };
    const labels = current.metadata.labels ?? {};
    if (labels["nvidia.com/mig.capable"] !== "true") return { ok: false, reason: `node ${nodeName} has no MIG-capable GPUs` };
    const gpuPods = api
      .list<IPod & KubeObject>("Pod", { fieldSelector: `spec.nodeName=${nodeName}` })
      .filter((p) => isPodActive(p) && p.spec?.containers.some((c) => Object.keys(c.resources?.limits ?? {}).some((r) => r.startsWith("nvidia.com/"))));
    if (gpuPods.length) return { ok: false, reason: `GPUs in use by ${gpuPods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`).join(", ")}` };
    let totals;
    try {
      totals = layoutTotals(parseMigPartedConfig(text), configName, Number(labels["nvidia.com/gpu.count"] ?? 0));
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
    const single = labels["nvidia.com/mig.strategy"] === "single";
    const profiles = Object.keys(totals.instances);
    if (single && profiles.length > 1) return { ok: false, reason: `the single MIG strategy needs one profile on every GPU, got ${profiles.join(", ")}` };
    const resources: Record<string, string> = {};
    if (single) resources["nvidia.com/gpu"] = String(totals.wholeGpus + (profiles.length ? totals.instances[profiles[0]!]! : 0));
    else {
      resources["nvidia.com/gpu"] = String(totals.wholeGpus);
      for (const [p, n] of Object.entries(totals.instances)) resources[`nvidia.com/mig-${p}`] = String(n);
    }
    const advertise = (list: Record<string, string> | undefined) => ({
      ...Object.fromEntries(Object.entries(list ?? {}).filter(([k]) => !k.startsWith("nvidia.com/mig-") && k !== "nvidia.com/gpu")),
      ...resources,
    });
    api.mutate<Node>("Node", undefined, nodeName, (n) => {
      n.status = { ...n.status, capacity: advertise(n.status?.capacity as Record<string, string>), allocatable: advertise(n.status?.allocatable as Record<string, string>) };
    }, { status: true });
    api.mutate<Node>("Node", undefined, nodeName, (n) => {
      const l = Object.fromEntries(Object.entries(n.metadata.labels ?? {}).filter(([k]) => !/^nvidia\.com\/mig-.+\.count$/.test(k)));
      if (!single) for (const [p, c] of Object.entries(totals.instances)) l[`nvidia.com/mig-${p}.count`] = String(c);
      n.metadata.labels = l;
    });
    return { ok: true };
  }
}
