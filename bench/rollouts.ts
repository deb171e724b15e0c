/**
 * The rollout load test as a benchmark: 300 req/s through two gateway processes in front of the
 * simulator while the canary slider moves 100 times and rolls back 10 times. Writes
 * bench/results/rollouts.json. Targets: 0 failed, share error ≤ 2 points, propagation p99 ≤ 1 s.
 */
import pg from "pg";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { setWeights } from "../server/rollouts/weights.ts";
import { rollbackEndpoint } from "../server/rollouts/actions.ts";
import { appDrivers } from "../server/cluster/drivers.ts";
import { runSliderLoad, type Change } from "../server/test/slider-load.ts";
import { BENCH_KEY, writeGatewayFixture } from "./gateway-fixture.ts";
import { startProcess, writeResult } from "./lib.ts";

const RPS = 300;

export async function benchRollouts() {
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_bench_rollouts");
  const upstream = await startProcess<{ url: string }>("bench/sim-server.ts");
  const gateways: Awaited<ReturnType<typeof startProcess<{ url: string }>>>[] = [];
  const db = createDb(databaseUrl);
  try {
    await deployMigrations(databaseUrl);
    await writeGatewayFixture(databaseUrl, upstream.info.url);
    // A second version beside the fixture's 1.0, served by the same upstream.
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`INSERT INTO "ModelVersion" (id, "modelId", version, "artifactUri", format, precision, "parameterCount", "weightBytes", "minGpuMemoryBytes") VALUES ('mv-bench-2', 'm-bench', '1.1', 's3://b/2', 'vllm', 'fp8', 1, 1, 1)`);
    await c.query(`INSERT INTO "EndpointVersion" (id, "endpointId", "modelVersionId", weight, state, "updatedAt") VALUES ('ev-bench-2', 'e-bench', 'mv-bench-2', 0, 'ready', now())`);
    await c.query(`INSERT INTO "Replica" (id, "endpointVersionId", driver, url, region, "regionVerifiedAt", "regionVerifiedByEmail", state, "updatedAt") VALUES ('r-bench-2', 'ev-bench-2', 'external', $1, 'tr-ist', now(), 'bench', 'ready', now())`, [upstream.info.url]);
    await c.query(`UPDATE "EndpointVersion" SET "lastFullAt" = now() WHERE id = 'ev-bench'`);
    await c.end();
    for (let i = 0; i < 2; i++) gateways.push(await startProcess<{ url: string }>("bench/gateway-server.ts", { BENCH_DATABASE_URL: databaseUrl }));

    const ctx = { db, actor: { userId: "bench", email: "bench@kule.local", name: "Bench", role: "operator" as const, tenantId: null }, ip: null, drivers: appDrivers() };
    let revision = (await db.endpoint.findUniqueOrThrow({ where: { id: "e-bench" } })).revision;
    const change = (after: { revision: number; versions: { modelVersion: { version: string }; weight: number }[] }): Change => {
      revision = after.revision;
      return { revision, savedAt: Date.now(), weights: Object.fromEntries(after.versions.map((v) => [v.modelVersion.version, v.weight])) };
    };
    const r = await runSliderLoad({
      gateways: gateways.map((g) => g.info.url),
      secret: BENCH_KEY,
      slug: "chat",
      rps: RPS,
      moves: 100,
      rollbacks: 10,
      shortMs: 150,
      longMs: 4000,
      longEvery: 10,
      initial: { revision, savedAt: Date.now(), weights: { "1.0": 100, "1.1": 0 } },
      setCanaryWeight: async (w) => change(await setWeights(ctx, { endpointId: "e-bench", expectedRevision: revision, weights: [{ endpointVersionId: "ev-bench", weight: 100 - w }, { endpointVersionId: "ev-bench-2", weight: w }] })),
      rollback: async () => change(await rollbackEndpoint(ctx, { endpointId: "e-bench", expectedRevision: revision })),
    });
    writeResult("rollouts", {
      rps: RPS,
      gateways: gateways.length,
      requests: r.requests,
      slider_moves: r.slider_moves,
      rollbacks: r.rollbacks,
      failed_requests: r.failed,
      windows_checked: r.windows_checked,
      max_share_error_points: r.max_share_error_points,
      propagation_p99_ms: r.propagation_p99_ms,
      propagation_max_ms: r.propagation_max_ms,
      targets: { failed_requests: 0, max_share_error_points: 2, propagation_p99_ms: 1000 },
      note: "Two gateway processes and the simulator on this machine; shares are checked per endpoint revision that served ≥ 1,000 requests (the revision each answer carries).",
    });
  } finally {
    for (const g of gateways) g.child.kill("SIGTERM");
    upstream.child.kill("SIGTERM");
    await db.$disconnect();
    await new Promise((r) => setTimeout(r, 500));
    await dropDatabase(databaseUrl).catch(() => {});
    await server.stop();
  }
}
