/**
 * The demo / reference seed: two price plans, three tenants, one user per role, three models with
 * two versions each, three endpoints and one API key per tenant.
 *
 * It writes no hardware: Kule learns node pools, nodes and GPUs from the cluster driver's
 * discovery (server/cluster/discovery.ts). Endpoints name their node pool, so the cluster is
 * discovered first (the demo from its running simulator or Kubernetes stand-in; `npm run db:seed`
 * from a simulator of the reference cluster started for the purpose) and the seed then finds the
 * pools by name; a pool it does not find is an error naming it.
 *
 * Idempotent: every row is looked up by a unique key and created only when missing. Existing
 * rows are left as they are, so re-seeding never undoes what an operator changed since (a
 * cordoned node, a new MIG layout, a finished rollout, a revoked key).
 *
 * It writes no AuditEvents: seeding is setup, not an operator action.
 *
 * THIS IS A DEMO SEED: its passwords are public and its API keys derived from the tenant slugs
 * (prisma/seed/people.ts). Never run it against a real deployment.
 *
 *   tsx prisma/seed.ts      (DATABASE_URL, else the embedded PostgreSQL under .data/)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "../server/db/generated/client.ts";
import { createDb } from "../server/db/client.ts";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { discoverSimulatedCluster } from "../scripts/lib/discover.ts";
import { DEMO_LOGINS, seedApiKeys, seedHardwareRates, seedPricePlans, seedTenants, seedUsers, type DemoLogin } from "./seed/people.ts";
import { seedEndpoints, seedModels } from "./seed/catalog.ts";

export interface SeedResult {
  logins: readonly DemoLogin[];
  /** Plain demo secrets, for the demo to print. */
  apiKeys: { tenantSlug: string; secret: string }[];
  /** Rows in the store after seeding (a second run reports the same numbers). */
  counts: { nodes: number; gpus: number; tenants: number; models: number; endpoints: number };
}

/**
 * Seeds the demo data. Not one transaction (bcrypt would outlast the transaction timeout);
 * since every step is idempotent, a run that fails half-way is completed by running it again.
 */
export async function seed(db: PrismaClient): Promise<SeedResult> {
  const poolIds = await discoveredPools(db);
  const planIds = await seedPricePlans(db);
  await seedHardwareRates(db);
  const tenantIds = await seedTenants(db, planIds);
  await seedUsers(db, tenantIds);
  const models = await seedModels(db);
  await seedEndpoints(db, poolIds, models);
  const apiKeys = await seedApiKeys(db, tenantIds);

  const [nodes, gpus, tenants, modelCount, endpoints] = await Promise.all([
    db.node.count(),
    db.gpu.count(),
    db.tenant.count(),
    db.model.count(),
    db.endpoint.count(),
  ]);
  return {
    logins: DEMO_LOGINS,
    apiKeys,
    counts: { nodes, gpus, tenants, models: modelCount, endpoints },
  };
}

/** The node pools discovery wrote, by name (the endpoints' pools must be among them). */
async function discoveredPools(db: PrismaClient): Promise<Map<string, string>> {
  const pools = await db.nodePool.findMany({ select: { id: true, name: true } });
  if (pools.length === 0) throw new Error("No node pools yet: discover the cluster before seeding (npm run db:seed does; the demo discovers its simulator first).");
  return new Map(pools.map((p) => [p.name, p.id]));
}

async function main(): Promise<void> {
  const { url, stop } = await resolveDatabaseUrl();
  const db = createDb(url);
  try {
    await discoverSimulatedCluster(db);
    const result = await seed(db);
    const c = result.counts;
    console.log(
      `Seeded: ${c.nodes} nodes, ${c.gpus} GPUs, ${c.tenants} tenants, ${c.models} models, ${c.endpoints} endpoints.`,
    );
    console.log("Demo logins:");
    for (const l of result.logins) {
      console.log(`  ${l.role.padEnd(8)} ${l.email} / ${l.password}${l.tenantSlug ? ` (${l.tenantSlug})` : ""}`);
    }
    console.log("Demo API keys:");
    for (const k of result.apiKeys) console.log(`  ${k.tenantSlug.padEnd(16)} ${k.secret}`);
  } finally {
    await db.$disconnect();
    await stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
