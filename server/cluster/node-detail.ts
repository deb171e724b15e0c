import type { ClusterContext } from "./drivers.ts";
import { clusterDriver } from "./drivers.ts";
import { NotFoundError } from "../errors.ts";
import { migInstanceMemoryBytes, supportsMig } from "./mig.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";
import type { NodeRefInput } from "./schemas.ts";
import { parallelismText } from "../shared/memory-rule.ts";

const GiB = 2 ** 30;

/** The group replica holding a GPU whole, as its card names it. */
function groupOf(groups: { id: string; tensorParallel: number; pipelineParallel: number; gpus: { gpuId: string; rank: number }[]; endpointVersion: { endpoint: { slug: string }; modelVersion: { version: string } } }[], gpuId: string) {
  const r = groups.find((x) => x.gpus.some((m) => m.gpuId === gpuId));
  if (!r) return null;
  const split = parallelismText({ tensor: r.tensorParallel, pipeline: r.pipelineParallel });
  return { replicaId: r.id, name: `${r.endpointVersion.endpoint.slug} ${r.endpointVersion.modelVersion.version}`, split, rank: r.gpus.find((m) => m.gpuId === gpuId)!.rank, size: r.gpus.length };
}

/** A node's MIG manager state as the cluster page shows it, why it failed in the reader's language; null when no change was ever asked of it. */
export function migStateView(n: { migConfig: string | null; migState: string | null; migStateSince: Date | null; migReason: string | null }, locale: Locale = "en") {
  return n.migConfig ? { config: n.migConfig, state: n.migState ?? "pending", since: n.migStateSince, reason: n.migReason && translateServerMessage(locale, n.migReason) } : null;
}

/**
 * One node in full, for the cluster page to open on demand: its GPUs, their MIG instances, the
 * replicas on each, and what only the live simulator knows (XID errors).
 */
export async function nodeDetail({ db, drivers, locale }: ClusterContext & { locale?: Locale }, { hostname }: NodeRefInput) {
  const [n, faults] = await Promise.all([
    db.node.findUnique({
      where: { hostname },
      include: {
        nodePool: { select: { name: true } },
        gpus: { orderBy: { index: "asc" }, include: { migInstances: { orderBy: { startSlot: "asc" } } } },
      },
    }),
    drivers.sim.faults().catch(() => null),
  ]);
  if (!n) throw new NotFoundError("Node");
  // By the GPUs they hold, not only by `nodeId`: a pipeline's later stages run here too.
  const replicas = await db.replica.findMany({
    where: { state: { not: "stopped" }, OR: [{ nodeId: n.id }, { gpus: { some: { gpu: { nodeId: n.id } } } }] },
    include: { gpus: { orderBy: { rank: "asc" }, include: { gpu: { select: { index: true, node: { select: { hostname: true } } } } } }, endpointVersion: { include: { endpoint: { select: { slug: true, name: true } }, modelVersion: { select: { version: true, weightBytes: true } } } } },
  });
  const isGroup = (r: (typeof replicas)[number]) => r.tensorParallel * r.pipelineParallel > 1;
  const xids = new Map((faults?.xids ?? []).map((x) => [x.gpuUuid, x.xid]));
  const replicaView = (r: (typeof replicas)[number]) => ({
    id: r.id,
    state: r.state,
    // Stored as Kule words it (in English); shown in the reader's language.
    reason: r.reason && translateServerMessage(locale ?? "en", r.reason),
    endpoint: r.endpointVersion.endpoint.slug,
    endpointName: r.endpointVersion.endpoint.name,
    version: r.endpointVersion.modelVersion.version,
    // What it holds on each of its GPUs: a group member carries 1/N of the weights.
    weightGiB: Number(r.endpointVersion.modelVersion.weightBytes) / GiB / (r.tensorParallel * r.pipelineParallel),
    expectedReadyAt: r.expectedReadyAt,
    migStartSlot: r.migStartSlot,
  });
  return {
    id: n.id,
    hostname: n.hostname,
    pool: n.nodePool.name,
    region: n.region,
    status: n.status,
    cordoned: n.cordoned,
    cpuModel: n.cpuModel,
    cpuCores: n.cpuCores,
    mig: migStateView(n, locale),
    /** The simulator lays out MIG at once; a Kubernetes node's MIG manager does it later. */
    migApplies: clusterDriver(drivers).kind === "sim" ? ("at-once" as const) : ("through-mig-manager" as const),
    cpuReplicas: replicas.filter((r) => !r.gpuId).map(replicaView),
    /** Tensor/pipeline-parallel replicas on this node's GPUs, drawn as one block over them. */
    groups: replicas.filter(isGroup).map((r) => ({
      replica: replicaView(r),
      tensorParallel: r.tensorParallel,
      pipelineParallel: r.pipelineParallel,
      gpuIndices: r.gpus.filter((m) => m.gpu.node.hostname === n.hostname).map((m) => m.gpu.index),
      /** Every GPU of the group, "host GPU i" in rank order (a pipeline spans nodes). */
      members: r.gpus.map((m) => `${m.gpu.node.hostname} GPU ${m.gpu.index}`),
    })),
    gpus: n.gpus.map((g) => ({
      id: g.id,
      index: g.index,
      uuid: g.uuid,
      modelName: g.modelName,
      memoryGiB: Number(g.memoryBytes) / GiB,
      migEnabled: g.migEnabled,
      migCapable: supportsMig(g.modelName),
      xid: xids.get(g.uuid) ?? 0,
      replicas: replicas.filter((r) => !isGroup(r) && r.gpuId === g.id && r.migStartSlot === null).map(replicaView),
      /** The group replica holding it whole, if any, and this GPU's rank in it. */
      group: groupOf(replicas.filter(isGroup), g.id),
      migInstances: g.migInstances.map((m) => ({
        id: m.id,
        profile: m.profile,
        startSlot: m.startSlot,
        memoryGiB: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile) / GiB,
        replicas: replicas.filter((r) => r.gpuId === g.id && r.migStartSlot === m.startSlot).map(replicaView),
      })),
    })),
  };
}
