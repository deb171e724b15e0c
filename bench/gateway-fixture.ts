import pg from "pg";
import { apiKeyRecord } from "../server/auth/api-key-secret.ts";

export const BENCH_KEY = "kule_benchbenchbenchbenchbenchbenchbench00";

/**
 * The rows a gateway needs to route `chat` to one upstream: tenant, key, model, endpoint, version,
 * replica. The tenant and key have limits, as tenants do, set high enough never to refuse: every
 * call then pays for checking them (through Redis, for the gateway with workers).
 */
export async function writeGatewayFixture(databaseUrl: string, upstreamUrl: string, visionUrl?: string, streamUrl?: string) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const key = apiKeyRecord(BENCH_KEY);
  try {
    await c.query(`INSERT INTO "Tenant" (id, name, slug, "rpmLimit", "tpmLimit", "updatedAt") VALUES ('t-bench', 'Bench', 'bench', 10000000, 1000000000, now())`);
    await c.query(`INSERT INTO "ApiKey" (id, "tenantId", name, prefix, "secretHash", "rpmLimit") VALUES ('k-bench', 't-bench', 'bench', $1, $2, 10000000)`, [key.prefix, key.hash]);
    await c.query(`INSERT INTO "Model" (id, name, task, "updatedAt") VALUES ('m-bench', 'bench-model', 'llm', now())`);
    await c.query(`INSERT INTO "ModelVersion" (id, "modelId", version, "artifactUri", format, precision, "parameterCount", "weightBytes", "minGpuMemoryBytes") VALUES ('mv-bench', 'm-bench', '1.0', 's3://b/1', 'vllm', 'fp8', 1, 1, 1)`);
    await c.query(`INSERT INTO "Cluster" (id, name) VALUES ('c-bench', 'bench')`);
    await c.query(`INSERT INTO "NodePool" (id, "clusterId", name, region) VALUES ('p-bench', 'c-bench', 'bench', 'tr-ist')`);
    await c.query(`INSERT INTO "Endpoint" (id, name, slug, "modelId", engine, "nodePoolId", "sloAvailabilityPct", "sloP99LatencyMs", "updatedAt") VALUES ('e-bench', 'Chat', 'chat', 'm-bench', 'vllm', 'p-bench', 99.9, 1000, now())`);
    await c.query(`INSERT INTO "EndpointVersion" (id, "endpointId", "modelVersionId", weight, state, "updatedAt") VALUES ('ev-bench', 'e-bench', 'mv-bench', 100, 'ready', now())`);
    await c.query(`INSERT INTO "Replica" (id, "endpointVersionId", driver, url, region, "regionVerifiedAt", "regionVerifiedByEmail", state, "updatedAt") VALUES ('r-bench', 'ev-bench', 'external', $1, 'tr-ist', now(), 'bench', 'ready', now())`, [upstreamUrl]);
    // A vision endpoint for the gRPC figures (KServe v2 ModelInfer through the gateway).
    if (visionUrl) {
      await c.query(`INSERT INTO "Model" (id, name, task, "updatedAt") VALUES ('m-vision', 'bench-vision', 'vision', now())`);
      await c.query(`INSERT INTO "ModelVersion" (id, "modelId", version, "artifactUri", format, precision, "parameterCount", "weightBytes", "minGpuMemoryBytes") VALUES ('mv-vision', 'm-vision', '1.0', 's3://b/v', 'onnx', 'fp16', 1, 1, 1)`);
      await c.query(`INSERT INTO "Endpoint" (id, name, slug, "modelId", engine, "nodePoolId", "sloAvailabilityPct", "sloP99LatencyMs", "updatedAt") VALUES ('e-vision', 'Vision', 'vision', 'm-vision', 'triton', 'p-bench', 99.9, 1000, now())`);
      await c.query(`INSERT INTO "EndpointVersion" (id, "endpointId", "modelVersionId", weight, state, "updatedAt") VALUES ('ev-vision', 'e-vision', 'mv-vision', 100, 'ready', now())`);
      await c.query(`INSERT INTO "Replica" (id, "endpointVersionId", driver, url, region, "regionVerifiedAt", "regionVerifiedByEmail", state, "updatedAt") VALUES ('r-vision', 'ev-vision', 'external', $1, 'tr-ist', now(), 'bench', 'ready', now())`, [visionUrl]);
    }
    // A streaming chat endpoint for the `stream` figures (bench/stream-upstream.ts), on the same model.
    if (streamUrl) {
      await c.query(`INSERT INTO "Endpoint" (id, name, slug, "modelId", engine, "nodePoolId", "sloAvailabilityPct", "sloP99LatencyMs", "updatedAt") VALUES ('e-stream', 'Stream', 'stream', 'm-bench', 'vllm', 'p-bench', 99.9, 60000, now())`);
      await c.query(`INSERT INTO "EndpointVersion" (id, "endpointId", "modelVersionId", weight, state, "updatedAt") VALUES ('ev-stream', 'e-stream', 'mv-bench', 100, 'ready', now())`);
      await c.query(`INSERT INTO "Replica" (id, "endpointVersionId", driver, url, region, "regionVerifiedAt", "regionVerifiedByEmail", state, "updatedAt") VALUES ('r-stream', 'ev-stream', 'external', $1, 'tr-ist', now(), 'bench', 'ready', now())`, [streamUrl]);
    }
  } finally {
    await c.end();
  }
}
