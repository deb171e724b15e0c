import pg from "pg";
import { apiKeyRecord } from "../server/auth/api-key-secret.ts";
import { BENCH_KEY } from "./gateway-fixture.ts";

/**
 * The routing bench's rows: a tenant and key; `chat` with one version of `replicas` replicas;
 * `chat-primary` (one replica) falling back to `chat-backup` (one replica). Replica URLs are set
 * once their simulator runs (bench/routing.ts).
 */
export async function writeRoutingFixture(databaseUrl: string, replicas: string[]) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const key = apiKeyRecord(BENCH_KEY);
  try {
    await c.query(`INSERT INTO "Tenant" (id, name, slug, "updatedAt") VALUES ('t-bench', 'Bench', 'bench', now())`);
    await c.query(`INSERT INTO "ApiKey" (id, "tenantId", name, prefix, "secretHash") VALUES ('k-bench', 't-bench', 'bench', $1, $2)`, [key.prefix, key.hash]);
    await c.query(`INSERT INTO "Model" (id, name, task, "updatedAt") VALUES ('m-bench', 'bench-30b', 'llm', now())`);
    await c.query(`INSERT INTO "ModelVersion" (id, "modelId", version, "artifactUri", format, precision, "parameterCount", "weightBytes", "minGpuMemoryBytes") VALUES ('mv-bench', 'm-bench', '1.0', 's3://b/1', 'vllm', 'bf16', 30000000000, 60000000000, 1)`);
    await c.query(`INSERT INTO "Cluster" (id, name) VALUES ('c-bench', 'bench')`);
    await c.query(`INSERT INTO "NodePool" (id, "clusterId", name, region) VALUES ('p-bench', 'c-bench', 'bench', 'tr-ist')`);
    const endpoints: [string, string, string[], string[]][] = [
      ["chat", "e-chat", replicas, []],
      ["chat-primary", "e-primary", ["r-primary"], ["e-backup"]],
      ["chat-backup", "e-backup", ["r-backup"], []],
    ];
    for (const [slug, id, reps, fallbacks] of endpoints) {
      await c.query(
        `INSERT INTO "Endpoint" (id, name, slug, "modelId", engine, "nodePoolId", "sloAvailabilityPct", "sloP99LatencyMs", "fallbackEndpointIds", "updatedAt") VALUES ($1, $2, $2, 'm-bench', 'vllm', 'p-bench', 99.9, 5000, $3, now())`,
        [id, slug, fallbacks],
      );
      await c.query(`INSERT INTO "EndpointVersion" (id, "endpointId", "modelVersionId", weight, state, "updatedAt") VALUES ($1, $2, 'mv-bench', 100, 'ready', now())`, [`ev-${id}`, id]);
      for (const r of reps) {
        await c.query(`INSERT INTO "Replica" (id, "endpointVersionId", driver, url, region, "regionVerifiedAt", "regionVerifiedByEmail", state, "updatedAt") VALUES ($1, $2, 'external', 'http://127.0.0.1:1', 'tr-ist', now(), 'bench', 'ready', now())`, [r, `ev-${id}`]);
      }
    }
  } finally {
    await c.end();
  }
}
