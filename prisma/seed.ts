/**
 * The demo / reference seed: the reference cluster from the product brief, two price plans,
 * three tenants, one user per role, three models with two versions each, three endpoints and
 * one API key per tenant.
 *
 * Idempotent: every row is looked up by a unique key and created only when missing. Existing
 * rows are left as they are, so re-seeding never undoes what an operator changed since (a
 * cordoned node, a new MIG layout, a finished rollout, a revoked key).
 *
 * It writes no AuditEvents: seeding is setup, not an operator action.
 *
 * THIS IS A DEMO SEED: the passwords below are public, and the API key secrets are derived
 * from the tenant slug so the demo can print them. Never run it against a real deployment.
 *
 *   tsx prisma/seed.ts      (DATABASE_URL, else the embedded PostgreSQL under .data/)
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ClusterDriverKind,
  EndpointVersionState,
  ModelFormat,
  ModelTask,
  Precision,
  PrismaClient,
  Role,
  ServingEngine,
} from "../server/db/generated/client.ts";
import { hashPassword } from "../server/auth/password.ts";
import { sha256Hex } from "../server/auth/api-key-secret.ts";
import { createDb } from "../server/db/client.ts";
import { resolveDatabaseUrl } from "../server/db/url.ts";

const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

// ---------------------------------------------------------------------------------------------
// What gets seeded
// ---------------------------------------------------------------------------------------------

export const CLUSTER_NAME = "kule-sim";

interface GpuSpec {
  modelName: string;
  memoryBytes: number;
}

interface PoolSpec {
  name: string;
  region: string;
  hostPrefix: string;
  nodeCount: number;
  cpuModel: string;
  cpuCores: number;
  memoryBytes: number;
  gpusPerNode: number;
  gpu?: GpuSpec;
}

const H100: GpuSpec = { modelName: "NVIDIA H100 80GB HBM3", memoryBytes: 80 * GiB };
const L40S: GpuSpec = { modelName: "NVIDIA L40S", memoryBytes: 48 * GiB };

const POOLS: PoolSpec[] = [
  {
    name: "llm-h100",
    region: "tr-ist",
    hostPrefix: "gpu-llm",
    nodeCount: 4,
    cpuModel: "2x AMD EPYC 9654",
    cpuCores: 192,
    memoryBytes: 1.5 * TiB,
    gpusPerNode: 8,
    gpu: H100,
  },
  {
    name: "vision-l40s",
    region: "tr-ist",
    hostPrefix: "gpu-vis",
    nodeCount: 4,
    cpuModel: "2x Intel Xeon Platinum 8480+",
    cpuCores: 112,
    memoryBytes: 512 * GiB,
    gpusPerNode: 4,
    gpu: L40S,
  },
  {
    name: "cpu-ank",
    region: "tr-ank",
    hostPrefix: "cpu-ank",
    nodeCount: 2,
    cpuModel: "2x AMD EPYC 9654",
    cpuCores: 192,
    memoryBytes: 768 * GiB,
    gpusPerNode: 0,
  },
  // Outside Turkey on purpose: KVKK tenants' calls must never land here.
  {
    name: "eu-fra",
    region: "eu-fra",
    hostPrefix: "gpu-fra",
    nodeCount: 1,
    cpuModel: "2x AMD EPYC 9654",
    cpuCores: 192,
    memoryBytes: 1.5 * TiB,
    gpusPerNode: 4,
    gpu: H100,
  },
];

/**
 * MIG layouts seeded on one LLM node so the MIG screen has something to show. Both are valid
 * per the H100 placement rules (facts.md): 3g+3g at slots 0 and 4 uses 6 of 7 compute slices,
 * 4g@0 + 2g@4 + 1g@6 uses all 7, and neither overlaps in memory slots.
 */
const MIG_LAYOUTS: Record<string, Record<number, { profile: string; startSlot: number }[]>> = {
  "gpu-llm-04": {
    6: [
      { profile: "3g.40gb", startSlot: 0 },
      { profile: "3g.40gb", startSlot: 4 },
    ],
    7: [
      { profile: "4g.40gb", startSlot: 0 },
      { profile: "2g.20gb", startSlot: 4 },
      { profile: "1g.10gb", startSlot: 6 },
    ],
  },
};

const PRICE_PLANS = [
  { name: "Standard", inputPer1M: "20", outputPer1M: "60", perRequest: "0.02" },
  { name: "Enterprise", inputPer1M: "15", outputPer1M: "45", perRequest: "0.015" },
];

const TENANTS = [
  { name: "Anadolu Bank", slug: "anadolu-bank", kvkk: true, plan: "Enterprise", monthlyBudget: "25000" },
  { name: "Boğaziçi Retail", slug: "bogazici-retail", kvkk: false, plan: "Standard" },
  { name: "Ege Health", slug: "ege-health", kvkk: true, plan: "Standard" },
];

export interface DemoLogin {
  email: string;
  password: string;
  role: Role;
  /** Set for the tenant role: the tenant the user belongs to. */
  tenantSlug?: string;
}

/** Public demo credentials, one user per role. */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  { email: "admin@kule.local", password: "kule-admin-demo", role: Role.admin },
  { email: "operator@kule.local", password: "kule-operator-demo", role: Role.operator },
  { email: "auditor@kule.local", password: "kule-auditor-demo", role: Role.auditor },
  {
    email: "tenant@anadolu-bank.local",
    password: "kule-tenant-demo",
    role: Role.tenant,
    tenantSlug: "anadolu-bank",
  },
  {
    email: "tenant@bogazici-retail.local",
    password: "kule-tenant-demo",
    role: Role.tenant,
    tenantSlug: "bogazici-retail",
  },
];

const BYTES_PER_PARAM: Record<Precision, number> = {
  fp32: 4,
  bf16: 2,
  fp16: 2,
  fp8: 1,
  int8: 1,
  int4: 0.5,
};

interface ModelSpec {
  name: string;
  task: ModelTask;
  description: string;
  format: ModelFormat;
  precision: Precision;
  parameterCount: number;
  versions: [string, string];
}

const MODELS: ModelSpec[] = [
  {
    name: "llama-3.1-8b-instruct",
    task: ModelTask.llm,
    description: "Meta Llama 3.1 8B Instruct, FP8 weights, served by vLLM for chat completions.",
    format: ModelFormat.vllm,
    precision: Precision.fp8,
    parameterCount: 8.03e9,
    versions: ["1.0", "1.1"],
  },
  {
    name: "yolov8-detector",
    task: ModelTask.vision,
    description: "YOLOv8 object detector, FP16 TensorRT plan served by Triton.",
    format: ModelFormat.triton,
    precision: Precision.fp16,
    parameterCount: 68.2e6,
    versions: ["8.0", "8.1"],
  },
  {
    name: "bge-m3-embedding",
    task: ModelTask.embedding,
    description: "BGE-M3 multilingual text embeddings (Turkish included), ONNX on CPU.",
    format: ModelFormat.onnx,
    precision: Precision.fp32,
    parameterCount: 568e6,
    versions: ["1.0", "1.1"],
  },
];

interface EndpointSpec {
  name: string;
  slug: string;
  model: string;
  pool: string;
  engine: ServingEngine;
  sloAvailabilityPct: string;
  sloP99LatencyMs: number;
  sloTtftMs: number | null;
}

const ENDPOINTS: EndpointSpec[] = [
  {
    name: "Chat (Llama 3.1 8B)",
    slug: "chat",
    model: "llama-3.1-8b-instruct",
    pool: "llm-h100",
    engine: ServingEngine.vllm,
    sloAvailabilityPct: "99.9",
    sloP99LatencyMs: 2000,
    sloTtftMs: 500,
  },
  {
    name: "Vision detect",
    slug: "vision-detect",
    model: "yolov8-detector",
    pool: "vision-l40s",
    engine: ServingEngine.triton,
    sloAvailabilityPct: "99.5",
    sloP99LatencyMs: 150,
    sloTtftMs: null,
  },
  {
    name: "Embeddings",
    slug: "embed",
    model: "bge-m3-embedding",
    pool: "cpu-ank",
    engine: ServingEngine.onnxruntime,
    sloAvailabilityPct: "99.9",
    sloP99LatencyMs: 300,
    sloTtftMs: null,
  },
];

// ---------------------------------------------------------------------------------------------
// Deterministic identifiers
// ---------------------------------------------------------------------------------------------

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A stable, NVIDIA-shaped GPU UUID, so re-seeding finds the same GPU instead of a new one. */
export function gpuUuid(hostname: string, index: number): string {
  const h = sha256(`kule-gpu:${hostname}:${index}`);
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Same length as the prefix newApiKeySecret() makes: `kule_` + 8 chars. */
const API_KEY_PREFIX_LEN = 13;

/**
 * The demo key of a tenant: shaped like a real one (`kule_` + 40 alphanumerics) but derived
 * from the slug so the demo can print it after every seed. Its first 8 characters after
 * `kule_` come from the slug's hash, which keeps the prefixes distinct across tenants.
 */
export function demoApiKeySecret(tenantSlug: string): string {
  return `kule_${sha256(`kule-demo-key:${tenantSlug}`).slice(0, 40)}`;
}

function hostname(pool: PoolSpec, n: number): string {
  return `${pool.hostPrefix}-${String(n).padStart(2, "0")}`;
}

/** A map entry the seed data itself guarantees; a miss is a typo in the tables above. */
function lookup<V>(map: Map<string, V>, key: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`Seed data refers to unknown "${key}"`);
  return value;
}

function weightBytes(spec: ModelSpec): number {
  return Math.round(spec.parameterCount * BYTES_PER_PARAM[spec.precision]);
}

// ---------------------------------------------------------------------------------------------
// Seeding steps (each one idempotent)
// ---------------------------------------------------------------------------------------------

async function seedCluster(db: PrismaClient): Promise<Map<string, string>> {
  const cluster = await db.cluster.upsert({
    where: { name: CLUSTER_NAME },
    create: { name: CLUSTER_NAME, driver: ClusterDriverKind.sim },
    update: {},
  });

  const poolIds = new Map<string, string>();
  for (const spec of POOLS) {
    const pool = await db.nodePool.upsert({
      where: { clusterId_name: { clusterId: cluster.id, name: spec.name } },
      create: { clusterId: cluster.id, name: spec.name, region: spec.region },
      update: {},
    });
    poolIds.set(spec.name, pool.id);
    for (let n = 1; n <= spec.nodeCount; n++) {
      await seedNode(db, pool.id, spec, hostname(spec, n));
    }
  }
  return poolIds;
}

async function seedNode(db: PrismaClient, nodePoolId: string, spec: PoolSpec, host: string): Promise<void> {
  const node = await db.node.upsert({
    where: { hostname: host },
    create: {
      nodePoolId,
      hostname: host,
      region: spec.region,
      cpuModel: spec.cpuModel,
      cpuCores: spec.cpuCores,
      memoryBytes: BigInt(spec.memoryBytes),
    },
    update: {},
  });
  if (!spec.gpu) return;

  const existing = new Set(
    (await db.gpu.findMany({ where: { nodeId: node.id }, select: { index: true } })).map((g) => g.index),
  );
  for (let index = 0; index < spec.gpusPerNode; index++) {
    if (existing.has(index)) continue;
    // MIG instances are laid out only when the GPU itself is new: an existing GPU keeps
    // whatever layout the operator gave it.
    const mig = MIG_LAYOUTS[host]?.[index];
    await db.gpu.create({
      data: {
        nodeId: node.id,
        index,
        uuid: gpuUuid(host, index),
        modelName: spec.gpu.modelName,
        memoryBytes: BigInt(spec.gpu.memoryBytes),
        migEnabled: mig !== undefined,
        ...(mig ? { migInstances: { create: mig } } : {}),
      },
    });
  }
}

/** Prices in force since the start of the year, so the demo's traffic is charged from the first call. */
const PRICES_FROM = new Date("2026-01-01T00:00:00Z");

async function seedPricePlans(db: PrismaClient): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const { name, ...price } of PRICE_PLANS) {
    const row = await db.pricePlan.upsert({ where: { name }, create: { name }, update: {} });
    if ((await db.planPrice.count({ where: { planId: row.id } })) === 0) await db.planPrice.create({ data: { planId: row.id, effectiveFrom: PRICES_FROM, ...price } });
    ids.set(name, row.id);
  }
  return ids;
}

/** What the hardware costs an hour to run (TRY): what the cost pages set against revenue. */
const HARDWARE_RATES = [
  { kind: "gpu" as const, key: H100.modelName, perHour: "95" },
  { kind: "gpu" as const, key: L40S.modelName, perHour: "40" },
];

async function seedHardwareRates(db: PrismaClient) {
  for (const r of HARDWARE_RATES) {
    if ((await db.hardwareRate.count({ where: { kind: r.kind, key: r.key } })) === 0) await db.hardwareRate.create({ data: { ...r, effectiveFrom: PRICES_FROM } });
  }
  // Each CPU node by its hostname.
  for (const n of await db.node.findMany({ where: { gpus: { none: {} } }, select: { hostname: true } })) {
    if ((await db.hardwareRate.count({ where: { kind: "cpu", key: n.hostname } })) === 0) await db.hardwareRate.create({ data: { kind: "cpu", key: n.hostname, perHour: "12", effectiveFrom: PRICES_FROM } });
  }
}

async function seedTenants(db: PrismaClient, planIds: Map<string, string>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const t of TENANTS) {
    const row = await db.tenant.upsert({
      where: { slug: t.slug },
      create: { name: t.name, slug: t.slug, kvkk: t.kvkk, pricePlanId: lookup(planIds, t.plan), monthlyBudget: "monthlyBudget" in t ? t.monthlyBudget : null },
      update: {},
    });
    ids.set(t.slug, row.id);
  }
  return ids;
}

function displayName(login: DemoLogin): string {
  const tenant = TENANTS.find((t) => t.slug === login.tenantSlug);
  return tenant ? `${tenant.name} (demo)` : `Demo ${login.role}`;
}

async function seedUsers(db: PrismaClient, tenantIds: Map<string, string>): Promise<void> {
  for (const login of DEMO_LOGINS) {
    // bcrypt is the slow part of the seed: hash only for users that don't exist yet.
    const user =
      (await db.user.findUnique({ where: { email: login.email } })) ??
      (await db.user.create({
        data: { email: login.email, name: displayName(login), passwordHash: await hashPassword(login.password) },
      }));
    const tenantId = login.tenantSlug ? lookup(tenantIds, login.tenantSlug) : null;
    await db.membership.upsert({
      where: { userId: user.id },
      create: { userId: user.id, role: login.role, tenantId },
      update: {},
    });
  }
}

/** Returns each model's id and the id of its first version (the one endpoints start on). */
async function seedModels(db: PrismaClient): Promise<Map<string, { modelId: string; firstVersionId: string }>> {
  const out = new Map<string, { modelId: string; firstVersionId: string }>();
  for (const spec of MODELS) {
    const model = await db.model.upsert({
      where: { name: spec.name },
      create: { name: spec.name, task: spec.task, description: spec.description },
      update: {},
    });
    const weights = weightBytes(spec);
    const versionIds: string[] = [];
    for (const version of spec.versions) {
      const row = await db.modelVersion.upsert({
        where: { modelId_version: { modelId: model.id, version } },
        create: {
          modelId: model.id,
          version,
          artifactUri: `s3://kule-models/${spec.name}/${version}`,
          format: spec.format,
          precision: spec.precision,
          parameterCount: BigInt(spec.parameterCount),
          weightBytes: BigInt(weights),
          // Weights plus ~20% for activations, KV cache floor and runtime overhead.
          minGpuMemoryBytes: BigInt(Math.round(weights * 1.2)),
        },
        update: {},
      });
      versionIds.push(row.id);
    }
    out.set(spec.name, { modelId: model.id, firstVersionId: versionIds[0]! });
  }
  return out;
}

async function seedEndpoints(
  db: PrismaClient,
  poolIds: Map<string, string>,
  models: Map<string, { modelId: string; firstVersionId: string }>,
): Promise<void> {
  for (const spec of ENDPOINTS) {
    const model = lookup(models, spec.model);
    const nodePoolId = lookup(poolIds, spec.pool);
    // Only a new endpoint gets its initial version: an existing one may be mid-rollout, and
    // adding a version there would break its weights summing to 100.
    const existing = await db.endpoint.findUnique({ where: { slug: spec.slug }, select: { id: true } });
    if (existing) continue;
    await db.endpoint.create({
      data: {
        name: spec.name,
        slug: spec.slug,
        modelId: model.modelId,
        engine: spec.engine,
        nodePoolId,
        sloAvailabilityPct: spec.sloAvailabilityPct,
        sloP99LatencyMs: spec.sloP99LatencyMs,
        sloTtftMs: spec.sloTtftMs,
        regionConstraint: null,
        versions: {
          create: { modelVersionId: model.firstVersionId, weight: 100, state: EndpointVersionState.ready, lastFullAt: new Date() },
        },
      },
    });
  }
}

async function seedApiKeys(
  db: PrismaClient,
  tenantIds: Map<string, string>,
): Promise<{ tenantSlug: string; secret: string }[]> {
  const keys = TENANTS.map((t) => ({ tenantSlug: t.slug, secret: demoApiKeySecret(t.slug) }));
  const prefixes = new Set(keys.map((k) => k.secret.slice(0, API_KEY_PREFIX_LEN)));
  if (prefixes.size !== keys.length) throw new Error("Demo API key prefixes collide; change the derivation");

  for (const { tenantSlug, secret } of keys) {
    await db.apiKey.upsert({
      where: { secretHash: sha256Hex(secret) },
      create: {
        tenantId: lookup(tenantIds, tenantSlug),
        name: "demo",
        prefix: secret.slice(0, API_KEY_PREFIX_LEN),
        secretHash: sha256Hex(secret),
        allowedEndpointIds: [], // every endpoint
      },
      update: {},
    });
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

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
  const poolIds = await seedCluster(db);
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

async function main(): Promise<void> {
  const { url, stop } = await resolveDatabaseUrl();
  const db = createDb(url);
  try {
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
