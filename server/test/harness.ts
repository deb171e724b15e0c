import { inject } from "vitest";
import { randomUUID } from "node:crypto";
import { createDb } from "../db/client.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import type { Role } from "../db/generated/enums.ts";
import type { Actor } from "../auth/actor.ts";
import { createCaller } from "../routers/root.ts";
import { SimDriver } from "../cluster/sim-driver.ts";
import { ExternalDriver } from "../cluster/external-driver.ts";
import type { Drivers } from "../cluster/drivers.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import type { AlertmanagerTarget } from "../alerts/config-sync.ts";
import type { Locale } from "../shared/i18n/locales.ts";

let client: PrismaClient | null = null;

/** The run's scratch database (see global-setup.ts). */
export function testDb(): PrismaClient {
  client ??= createDb(inject("databaseUrl"));
  return client;
}

let drivers: Drivers | null = null;

/** Drivers pointed at the run's simulator (see global-setup.ts). */
export function testDrivers(): Drivers {
  drivers ??= { sim: new SimDriver(inject("simUrl")), external: new ExternalDriver({ healthIntervalMs: 200, failuresBeforeDown: 2 }) };
  return drivers;
}

/** Integration tests run without Prometheus: metrics procedures answer "metrics are off". */
const noPrometheus = new PrometheusClient(null);

/** No Alertmanager unless a test file starts one (useAlertmanager): alert procedures then say it is off. */
let alertmanager: AlertmanagerTarget | null = null;
export const useAlertmanager = (t: AlertmanagerTarget | null) => void (alertmanager = t);

/** A caller as `actor`, on a page in `locale` (English when unset). */
export function caller(actor: Actor | null, opts: { locale?: Locale } = {}) {
  return createCaller({ db: testDb(), actor, ip: "127.0.0.1", drivers: testDrivers(), prometheus: noPrometheus, alertmanager, locale: opts.locale });
}

export const uid = () => randomUUID().slice(0, 8);

// A bcrypt hash of "irrelevant-password": fixtures need a hash, not a sign-in.
const FIXTURE_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.Gd4uSbf7CX8gqHmOQhcGZVqjbY9e";

export async function makeTenant(opts: { kvkk?: boolean } = {}) {
  const s = uid();
  return testDb().tenant.create({ data: { name: `Tenant ${s}`, slug: `t-${s}`, kvkk: opts.kvkk ?? false } });
}

/** A user with a membership, returned as the Actor the tRPC context would load. */
export async function makeActor(role: Role, tenantId: string | null = null): Promise<Actor> {
  const s = uid();
  const user = await testDb().user.create({
    data: { email: `${role}-${s}@test.local`, name: `${role} ${s}`, passwordHash: FIXTURE_HASH, membership: { create: { role, tenantId } } },
  });
  return { userId: user.id, email: user.email, name: user.name, role, tenantId };
}

/** A cluster with one GPU pool, for endpoints to live on. */
export async function makeNodePool(db = testDb()) {
  const s = uid();
  const cluster = await db.cluster.create({ data: { name: `c-${s}` } });
  return db.nodePool.create({ data: { clusterId: cluster.id, name: `pool-${s}`, region: "tr-ist" } });
}

export async function makeModelWithVersions(versions = ["1.0", "1.1"], db = testDb()) {
  const s = uid();
  return db.model.create({
    data: {
      name: `m-${s}`,
      task: "llm",
      versions: {
        create: versions.map((v) => ({
          version: v,
          artifactUri: `s3://models/m-${s}/${v}`,
          format: "vllm" as const,
          precision: "fp8" as const,
          parameterCount: 8_000_000_000n,
          weightBytes: 8_000_000_000n,
          minGpuMemoryBytes: 9_600_000_000n,
        })),
      },
    },
    include: { versions: { orderBy: { version: "asc" } } },
  });
}

/** `db`: a test file's own database (ownDatabase) instead of the run's. */
export async function makeEndpoint(db = testDb()) {
  const [pool, model] = await Promise.all([makeNodePool(db), makeModelWithVersions(undefined, db)]);
  const s = uid();
  const endpoint = await db.endpoint.create({
    data: {
      name: `Endpoint ${s}`,
      slug: `ep-${s}`,
      modelId: model.id,
      engine: "vllm",
      nodePoolId: pool.id,
      sloAvailabilityPct: "99.9",
      sloP99LatencyMs: 2000,
      versions: { create: [{ modelVersionId: model.versions[0]!.id, weight: 100, state: "ready" }] },
    },
    include: { versions: true },
  });
  return { endpoint, model, pool };
}

export async function auditCount() {
  return testDb().auditEvent.count();
}

/**
 * Calls a mutation the way the browser does, through tRPC's fetch handler, and returns the HTTP
 * status and the error shape the client receives (with its per-field messages).
 */
export async function httpMutation(actor: Actor | null, path: string, input: unknown, opts: { locale?: Locale } = {}) {
  const { fetchRequestHandler } = await import("@trpc/server/adapters/fetch");
  const { appRouter } = await import("../routers/root.ts");
  const superjson = (await import("superjson")).default;
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://kule.test/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(superjson.serialize(input)),
    }),
    router: appRouter,
    createContext: () => ({ locale: opts.locale, db: testDb(), actor, ip: "127.0.0.1", drivers: testDrivers(), prometheus: noPrometheus, alertmanager }),
    onError: () => {},
  });
  const body = (await res.json()) as { error?: { json: { message: string; data: { code: string; fieldErrors: Record<string, string[]> | null } } } };
  return { status: res.status, error: body.error?.json ?? null };
}
