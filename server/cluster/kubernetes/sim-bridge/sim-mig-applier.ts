import type { SimCluster } from "../../sim/cluster.ts";
import { ConfigMapMigApplier, type ClusterApi, type MigApplier, type MigApplyResult } from "../stand-in/index.ts";
import type { Node } from "../stand-in/controllers/mig-manager.ts";
import { fromMigParted, parseMigParted } from "../mig-plan.ts";

export interface SimMigApplierOptions {
  namespace: string;
  name: string;
  key: string;
  /** How long re-partitioning takes. */
  delayMs: number;
}

const key = (l: { profile: string; startSlot: number }[]) => l.map((m) => `${m.profile}@${m.startSlot}`).join(",");

/**
 * The stand-in's MIG manager acting on the simulator: it reads the layout from the mig-parted
 * ConfigMap, advertises the resulting resources as the device plugin would (ConfigMapMigApplier,
 * which also refuses while GPU pods run on the node), and re-partitions the simulated GPUs, placing
 * instances as a MIG manager does (largest first). The simulator's refusal is the failure reason.
 */
export class SimMigApplier implements MigApplier {
  private readonly advertise: ConfigMapMigApplier;

  constructor(
    private readonly cluster: SimCluster,
    private readonly o: SimMigApplierOptions,
  ) {
    this.advertise = new ConfigMapMigApplier({ namespace: o.namespace, name: o.name, key: o.key, delayMs: o.delayMs });
  }

  async apply(node: Node, configName: string, api: ClusterApi): Promise<MigApplyResult> {
    const result = await this.advertise.apply(node, configName, api);
    if (!result.ok) return result;
    const hostname = node.metadata.name!;
    const sim = this.cluster.inventory.nodes.get(hostname);
    if (!sim) return { ok: false, reason: `the simulator has no node ${hostname}` };
    const text = api.get<{ data?: Record<string, string> }>("ConfigMap", this.o.namespace, this.o.name)?.data?.[this.o.key] ?? "";
    const groups = parseMigParted(text)["mig-configs"][configName] ?? [];
    const memoryGb = (sim.gpus[0]?.memoryBytes ?? 0) / 2 ** 30;
    const layouts = fromMigParted(groups, sim.gpus.length, memoryGb);
    try {
      for (const gpu of sim.gpus) {
        const next = layouts[gpu.index] ?? [];
        if (key(next) !== key(gpu.mig) || gpu.migEnabled !== next.length > 0) await this.cluster.applyMigLayout(gpu.uuid, next);
      }
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
    return { ok: true };
  }
}
