import type { ClusterContext } from "./drivers.ts";
import { clusterDriver } from "./drivers.ts";
import { NotFoundError } from "../errors.ts";
import { migInstanceMemoryBytes, supportsMig } from "./mig.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";
import type { NodeRefInput } from "./schemas.ts";

const GiB = 2 ** 30;

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
        replicas: { where: { state: { not: "stopped" } }, include: { endpointVersion: { include: { endpoint: { select: { slug: true, name: true } }, modelVersion: { select: { version: true, weightBytes: true } } } } } },
      },
    }),
    drivers.sim.faults().catch(() => null),
  ]);
  if (!n) throw new NotFoundError("Node");
  const xids = new Map((faults?.xids ?? []).map((x) => [x.gpuUuid, x.xid]));
  const replicaView = (r: (typeof n.replicas)[number]) => ({
    id: r.id,
    state: r.state,
    // Stored as Kule words it (in English); shown in the reader's language.
    reason: r.reason && translateServerMessage(locale ?? "en", r.reason),
    endpoint: r.endpointVersion.endpoint.slug,
    endpointName: r.endpointVersion.endpoint.name,
    version: r.endpointVersion.modelVersion.version,
    weightGiB: Number(r.endpointVersion.modelVersion.weightBytes) / GiB,
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
    cpuReplicas: n.replicas.filter((r) => !r.gpuId).map(replicaView),
    gpus: n.gpus.map((g) => ({
      id: g.id,
      index: g.index,
      uuid: g.uuid,
      modelName: g.modelName,
      memoryGiB: Number(g.memoryBytes) / GiB,
      migEnabled: g.migEnabled,
      migCapable: supportsMig(g.modelName),
      xid: xids.get(g.uuid) ?? 0,
      replicas: n.replicas.filter((r) => r.gpuId === g.id && r.migStartSlot === null).map(replicaView),
      migInstances: g.migInstances.map((m) => ({
        id: m.id,
        profile: m.profile,
        startSlot: m.startSlot,
        memoryGiB: migInstanceMemoryBytes(Number(g.memoryBytes), m.profile) / GiB,
        replicas: n.replicas.filter((r) => r.gpuId === g.id && r.migStartSlot === m.startSlot).map(replicaView),
      })),
    })),
  };
}
