import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import type { ClusterDriverKind } from "../db/generated/enums.ts";
import type { ClusterEvent, MigProgress, Topology, TopologyGpu, TopologyNode } from "./driver.ts";
import type { MigInstanceSpec } from "./mig.ts";

type NodeRow = Awaited<ReturnType<typeof loadNodes>>[number];

function loadNodes(db: PrismaClient, clusterId: string, hostnames: string[]) {
  return db.node.findMany({
    where: { OR: [{ hostname: { in: hostnames } }, { nodePool: { clusterId } }] },
    include: { gpus: { include: { migInstances: true } } },
  });
}

const layoutKey = (l: MigInstanceSpec[]) =>
  [...l]
    .sort((a, b) => a.startSlot - b.startSlot)
    .map((m) => `${m.profile}@${m.startSlot}`)
    .join(",");

function migColumns(mig: MigProgress | null | undefined) {
  if (mig === undefined) return {};
  return { migConfig: mig?.config ?? null, migState: mig?.state ?? null, migStateSince: mig?.since ? new Date(mig.since) : null, migReason: mig?.reason ?? null };
}

/**
 * Writes what a driver discovered into the database: the cluster, its pools, nodes, GPUs and MIG
 * layouts, for every driver alike. Only what changed is written, so rediscovering a large fleet
 * costs one read and a few writes. A node the cluster no longer reports is kept (replicas and
 * cost history refer to it) and marked down.
 */
export async function syncTopology(db: PrismaClient, topology: Topology, driver: ClusterDriverKind): Promise<{ written: number }> {
  const cluster = await db.cluster.upsert({ where: { name: topology.cluster }, create: { name: topology.cluster, driver }, update: { driver } });
  const pools = new Map((await db.nodePool.findMany({ where: { clusterId: cluster.id } })).map((p) => [p.name, p]));
  let written = 0;
  for (const p of topology.pools) {
    const row = pools.get(p.name);
    if (!row) {
      pools.set(p.name, await db.nodePool.upsert({ where: { clusterId_name: { clusterId: cluster.id, name: p.name } }, create: { clusterId: cluster.id, name: p.name, region: p.region }, update: { region: p.region } }));
      written++;
    } else if (row.region !== p.region) {
      await db.nodePool.update({ where: { id: row.id }, data: { region: p.region } });
      written++;
    }
  }
  const topoNodes = topology.pools.flatMap((p) => p.nodes.map((n) => ({ n, poolId: pools.get(p.name)!.id })));
  const existing = new Map((await loadNodes(db, cluster.id, topoNodes.map((t) => t.n.hostname))).map((r) => [r.hostname, r]));
  for (const { n, poolId } of topoNodes) written += await syncNode(db, n, poolId, existing.get(n.hostname));
  const present = new Set(topoNodes.map((t) => t.n.hostname));
  const gone = [...existing.values()].filter((r) => !present.has(r.hostname) && r.status !== "down" && [...pools.values()].some((p) => p.id === r.nodePoolId));
  if (gone.length) {
    await db.node.updateMany({ where: { id: { in: gone.map((r) => r.id) } }, data: { status: "down" } });
    written += gone.length;
  }
  return { written };
}

async function syncNode(db: PrismaClient, n: TopologyNode, nodePoolId: string, row: NodeRow | undefined): Promise<number> {
  const facts = { nodePoolId, region: n.region, cpuModel: n.cpuModel, cpuCores: n.cpuCores, memoryBytes: BigInt(Math.round(n.memoryBytes)), status: n.status, cordoned: n.cordoned, ...migColumns(n.mig) };
  if (!row) {
    await db.node.upsert({
      where: { hostname: n.hostname },
      create: { hostname: n.hostname, ...facts, gpus: { create: n.gpus.map((g) => ({ ...gpuFacts(g), migInstances: { create: g.migInstances.map((m) => ({ profile: m.profile, startSlot: m.startSlot })) } })) } },
      update: facts,
    });
    return 1;
  }
  let written = 0;
  const changed = (Object.keys(facts) as (keyof typeof facts)[]).some((k) => String(row[k] ?? null) !== String(facts[k] ?? null));
  if (changed) {
    await db.node.update({ where: { id: row.id }, data: facts });
    written++;
  }
  const gpus = new Map(row.gpus.map((g) => [g.uuid, g]));
  for (const g of n.gpus) {
    const have = gpus.get(g.uuid);
    if (!have) {
      await db.gpu.upsert({ where: { uuid: g.uuid }, create: { nodeId: row.id, ...gpuFacts(g) }, update: { nodeId: row.id, ...gpuFacts(g) } });
      await replaceMig(db, g.uuid, g.migEnabled, g.migInstances);
      written++;
      continue;
    }
    const f = gpuFacts(g);
    if (have.index !== f.index || have.modelName !== f.modelName || have.memoryBytes !== f.memoryBytes || have.nvlinkDomain !== f.nvlinkDomain) {
      await db.gpu.update({ where: { id: have.id }, data: { index: f.index, modelName: f.modelName, memoryBytes: f.memoryBytes, nvlinkDomain: f.nvlinkDomain } });
      written++;
    }
    if (have.migEnabled !== g.migEnabled || layoutKey(have.migInstances) !== layoutKey(g.migInstances)) {
      await replaceMig(db, g.uuid, g.migEnabled, g.migInstances);
      written++;
    }
  }
  return written;
}

function gpuFacts(g: TopologyGpu) {
  return { index: g.index, uuid: g.uuid, modelName: g.modelName, memoryBytes: BigInt(Math.round(g.memoryBytes)), migEnabled: g.migEnabled, nvlinkDomain: g.nvlinkDomain ?? null };
}

/** A GPU's MIG layout as the cluster reports it (by UUID; unknown GPUs wait for the next discovery). */
async function replaceMig(db: PrismaClient, uuid: string, migEnabled: boolean, layout: MigInstanceSpec[]): Promise<void> {
  await db.$transaction(async (tx) => {
    const gpu = await tx.gpu.findUnique({ where: { uuid }, select: { id: true } });
    if (gpu) await writeMigLayout(tx, gpu.id, migEnabled, layout);
  });
}

/**
 * The one writer of a GPU's MIG instances (discovery, events and the operator's change alike):
 * the GPU row is locked first, so two writers of one layout take turns instead of colliding.
 */
export async function writeMigLayout(tx: DbTx, gpuId: string, migEnabled: boolean, layout: MigInstanceSpec[]) {
  await tx.$queryRaw`SELECT id FROM "Gpu" WHERE id = ${gpuId} FOR UPDATE`;
  const have = await tx.migInstance.findMany({ where: { gpuId } });
  if (layoutKey(have) !== layoutKey(layout)) {
    await tx.migInstance.deleteMany({ where: { gpuId } });
    await tx.migInstance.createMany({ data: layout.map((m) => ({ gpuId, profile: m.profile, startSlot: m.startSlot })) });
  }
  return tx.gpu.update({ where: { id: gpuId }, data: { migEnabled }, include: { migInstances: true } });
}

/** Applies one discovery event: a node's state, a GPU's new MIG layout. Topology events rediscover (see sync.ts). */
export async function applyDiscoveryEvent(db: PrismaClient, e: ClusterEvent): Promise<void> {
  if (e.type === "node") {
    await db.node.updateMany({ where: { hostname: e.hostname }, data: { status: e.status, cordoned: e.cordoned, ...migColumns(e.mig) } });
  } else if (e.type === "mig") {
    await replaceMig(db, e.gpuUuid, e.layout.length > 0, e.layout);
  }
}
