import pg from "pg";
import type { ReplicaChoice } from "./replica-choice.ts";
import type { RequestClass } from "../endpoints/schemas.ts";
import { lowerOf, type Priority } from "./overload/priority.ts";
import { CURRENT_KEYS_SQL, currentKeysOf, type CurrentKeys } from "../call-log/keys/registry.ts";

/** Everything a gateway needs to answer a request, held in memory (no database round trip per request). */
export interface GatewayConfig {
  loadedAt: number;
  keysByHash: Map<string, KeyConfig>;
  tenants: Map<string, TenantConfig>;
  endpointsBySlug: Map<string, EndpointConfig>;
  /** The same endpoints by id: classes and fallbacks name endpoints by id. */
  endpointsById: Map<string, EndpointConfig>;
  /** The call log's current key versions as PostgreSQL records them (key-check.ts): read with the config, never per call. */
  keys: CurrentKeys;
}

export interface KeyConfig {
  id: string;
  tenantId: string;
  allowedEndpointIds: Set<string> | null;
  expiresAt: number | null;
  revoked: boolean;
  rpmLimit: number | null;
  tpmLimit: number | null;
  /** The overload queue's class of its calls (its own, else its tenant's plan's), and whether its header may raise it. */
  priority: Priority;
  mayRaisePriority: boolean;
}

export interface TenantConfig {
  id: string;
  slug: string;
  /** Turkey only by the tenant's contract: no transfer abroad even where a safeguard exists. */
  kvkk: boolean;
  /** KVKK Art. 9: countries (region prefixes) a recorded safeguard lets this tenant's calls go to. */
  abroad: Set<string>;
  active: boolean;
  /** Set while a hard-capped tenant is over its monthly budget: "25000.00 TRY". */
  budgetBlocked: string | null;
  /** Set while the tenant's month has reached the platform's credit limit: "50000.00 TRY". */
  creditBlocked: string | null;
  /** The tenant's own limits, else its price plan's. */
  rpmLimit: number | null;
  tpmLimit: number | null;
  /** Special categories of personal data (KVKK Art. 6): its rows go under the special ring's keys. */
  special: boolean;
  /** An Art. 6(3) condition is recorded for transfers of special categories: its safeguards then cover a special endpoint's calls too. */
  specialAbroad: boolean;
  /** Its plan's class and weight in the overload queue (overload/scheduler.ts). */
  priority: Priority;
  weight: number;
  /** Its prompts' cached prefixes are its own (vLLM cache_salt): by its setting, else on for special categories. */
  privateCache: boolean;
  /** The cache_salt its calls carry where its cache is private (its own, or the endpoint's setting): random per tenant. */
  cacheSalt: string;
}

export interface EndpointConfig {
  id: string;
  slug: string;
  task: string;
  sticky: boolean;
  regionConstraint: string | null;
  /** The endpoint's revision: answers carry it, so a weight change can be traced to requests. */
  revision: number;
  /** The SLO thresholds each request is judged against in the gateway's metrics (exact, not a histogram bucket). */
  slo: { latencyMs: number | null; ttftMs: number | null };
  /** How a version's replica is picked: fewest outstanding calls, or by the prompt's prefix (replica-choice.ts). */
  replicaChoice: ReplicaChoice;
  /** Endpoint ids tried in order when this one fails before its first byte (fallbacks.ts). */
  fallbackIds: string[];
  /** Rules sending calls of a class on to another endpoint, first match wins. */
  classes: RequestClass[];
  /** Scale from zero (cold-start.ts): calls held per gateway while no replica is ready, and how long each waits. */
  coldStart?: { queueLimit: number; timeoutMs: number };
  versions: VersionConfig[];
  /** Special categories of personal data (KVKK Art. 6) whoever calls it. */
  special?: boolean;
  /** Every tenant gets a prefix cache of its own here (vLLM cache_salt). */
  privateCache?: boolean;
}

export interface VersionConfig {
  id: string;
  label: string;
  weight: number;
  /** Smooth weighted round robin's running credit (routing.ts). */
  credit: number;
  /** The model version's context length (max_model_len), when known. */
  contextTokens: number | null;
  /** Percent of the endpoint's calls also sent here as shadow traffic (answers discarded). */
  shadowPercent: number;
  replicas: ReplicaConfig[];
  /** Replicas pending or loading, and the earliest time one expects to be ready (ms; null: unknown). */
  starting?: number;
  startingReadyAt?: number | null;
  /** An enabled autoscaling policy: with no replica running, a held call asks it for one. */
  autoscaled?: boolean;
}

export interface ReplicaConfig {
  id: string;
  url: string;
  region: string;
  /** False for an external server whose region label no admin has verified: its country is unknown. */
  verified: boolean;
  /** A server registered by URL (the external driver): its connections pass Kule's outbound check. */
  external?: boolean;
}

/** Whether `url` is an operator-registered server's: the gateway then checks where each new connection goes. */
export const servesExternal = (cfg: GatewayConfig, url: string) => [...cfg.endpointsById.values()].some((e) => e.versions.some((v) => v.replicas.some((r) => r.external && r.url === url)));

/** Reads the whole configuration in seven queries; ConfigStore (config-store.ts) keeps it current. */
export async function loadConfig(client: pg.Pool | pg.Client): Promise<GatewayConfig> {
  const [keys, tenants, endpoints, replicas, safeguards, starting, keyVersions] = await Promise.all([
    client.query<{ id: string; tenantId: string; secretHash: string; allowedEndpointIds: string[]; expiresAt: Date | null; revokedAt: Date | null; rpmLimit: number | null; tpmLimit: number | null; priority: Priority | null; mayRaisePriority: boolean }>(
      `SELECT id, "tenantId", "secretHash", "allowedEndpointIds", "expiresAt", "revokedAt", "rpmLimit", "tpmLimit", priority, "mayRaisePriority" FROM "ApiKey"`,
    ),
    client.query<{ id: string; slug: string; kvkk: boolean; status: string; rpmLimit: number | null; tpmLimit: number | null; budget: string | null; credit: string | null; special: boolean; abroadConsent: boolean; priority: Priority; weight: number; privateCache: boolean; cacheSalt: string }>(
      `SELECT t.id, t.slug, t.kvkk, t.status, t."specialCategory" IS NOT NULL AS special, t."specialAbroadConsentRef" IS NOT NULL AS "abroadConsent", coalesce(t."rpmLimit", p."rpmLimit") AS "rpmLimit", coalesce(t."tpmLimit", p."tpmLimit") AS "tpmLimit",
              coalesce(p.priority, 'standard') AS priority, coalesce(p."fairShareWeight", 1) AS weight, coalesce(t."privatePrefixCache", t."specialCategory" IS NOT NULL) AS "privateCache", t."cacheSalt",
              CASE WHEN t."budgetBlockedAt" IS NOT NULL THEN t."monthlyBudget"::text || ' ' || coalesce(p.currency, 'TRY') END AS budget,
              CASE WHEN t."creditBlockedAt" IS NOT NULL THEN t."creditLimit"::text || ' ' || coalesce(p.currency, 'TRY') END AS credit
         FROM "Tenant" t LEFT JOIN "PricePlan" p ON p.id = t."pricePlanId"`,
    ),
    client.query<{ id: string; slug: string; task: string; stickySessions: boolean; regionConstraint: string | null; revision: number; sloP99LatencyMs: number; sloTtftMs: number | null; coldStartQueueLimit: number; coldStartTimeoutSeconds: number; privateCache: boolean; replicaChoice: ReplicaChoice; fallbackEndpointIds: string[]; requestClasses: RequestClass[]; versionId: string | null; label: string | null; weight: number | null; shadowPercent: number | null; contextTokens: number | null; autoscaled: boolean | null; special: boolean }>(
      `SELECT e.id, e.slug, m.task, e."specialCategory" IS NOT NULL AS special, e."stickySessions", e."regionConstraint", e.revision, e."sloP99LatencyMs", e."sloTtftMs", e."replicaChoice", e."fallbackEndpointIds", e."requestClasses", e."coldStartQueueLimit", e."coldStartTimeoutSeconds", e."privatePrefixCache" AS "privateCache",
              ev.id AS "versionId", mv.version AS label, ev.weight, ev."shadowPercent", mv."contextTokens", ap.enabled AS autoscaled
         FROM "Endpoint" e JOIN "Model" m ON m.id = e."modelId"
         LEFT JOIN "EndpointVersion" ev ON ev."endpointId" = e.id AND ev.state <> 'retired'
         LEFT JOIN "ModelVersion" mv ON mv.id = ev."modelVersionId"
         LEFT JOIN "AutoscalePolicy" ap ON ap."endpointVersionId" = ev.id
        WHERE e."retiredAt" IS NULL
        ORDER BY e.id, ev."createdAt"`,
    ),
    client.query<{ id: string; endpointVersionId: string; url: string; region: string; verified: boolean; external: boolean }>(
      `SELECT id, "endpointVersionId", url, region, (driver <> 'external' OR "regionVerifiedAt" IS NOT NULL) AS verified, driver = 'external' AS external
         FROM "Replica" WHERE state = 'ready' AND url IS NOT NULL ORDER BY id`,
    ),
    // In force now: signed (never in the future, the input refuses it) and not revoked.
    client.query<{ tenantId: string; destination: string }>(
      `SELECT DISTINCT "tenantId", destination FROM "TransferSafeguard" WHERE "revokedAt" IS NULL AND "signedAt" <= now() AT TIME ZONE 'UTC'`,
    ),
    client.query<{ endpointVersionId: string; n: number; readyAt: Date | null }>(
      `SELECT "endpointVersionId", count(*)::int AS n, min("expectedReadyAt") AS "readyAt" FROM "Replica" WHERE state IN ('pending', 'loading') GROUP BY "endpointVersionId"`,
    ),
    client.query<{ ring: string; version: string; fingerprint: string }>(CURRENT_KEYS_SQL),
  ]);
  const cfg: GatewayConfig = { loadedAt: Date.now(), keysByHash: new Map(), tenants: new Map(), endpointsBySlug: new Map(), endpointsById: new Map(), keys: currentKeysOf(keyVersions.rows) };
  for (const t of tenants.rows) cfg.tenants.set(t.id, { id: t.id, slug: t.slug, kvkk: t.kvkk, abroad: new Set(), active: t.status === "active", budgetBlocked: t.budget, creditBlocked: t.credit, rpmLimit: t.rpmLimit, tpmLimit: t.tpmLimit, special: t.special, specialAbroad: t.abroadConsent, priority: t.priority, weight: t.weight, privateCache: t.privateCache, cacheSalt: t.cacheSalt });
  for (const k of keys.rows) {
    cfg.keysByHash.set(k.secretHash, {
      id: k.id,
      tenantId: k.tenantId,
      allowedEndpointIds: k.allowedEndpointIds.length ? new Set(k.allowedEndpointIds) : null,
      expiresAt: k.expiresAt ? k.expiresAt.getTime() : null,
      revoked: k.revokedAt !== null,
      rpmLimit: k.rpmLimit,
      tpmLimit: k.tpmLimit,
      // Never above the plan's class, whatever the key's row says.
      priority: lowerOf(k.priority ?? "interactive", cfg.tenants.get(k.tenantId)?.priority ?? "standard"),
      mayRaisePriority: k.mayRaisePriority,
    });
  }
  // A special tenant's calls go abroad only under a safeguard plus a recorded Art. 6(3) condition (KVKK Art. 9 as amended by Law 7499).
  const mayGoAbroad = new Set(tenants.rows.filter((t) => !t.special || t.abroadConsent).map((t) => t.id));
  for (const s of safeguards.rows) if (mayGoAbroad.has(s.tenantId)) cfg.tenants.get(s.tenantId)?.abroad.add(s.destination);
  const versions = new Map<string, VersionConfig>();
  for (const row of endpoints.rows) {
    let e = cfg.endpointsBySlug.get(row.slug);
    if (!e) {
      e = { id: row.id, slug: row.slug, task: row.task, sticky: row.stickySessions, regionConstraint: row.regionConstraint, revision: row.revision, slo: { latencyMs: row.sloP99LatencyMs, ttftMs: row.sloTtftMs },
        replicaChoice: row.replicaChoice, fallbackIds: row.fallbackEndpointIds ?? [], classes: row.requestClasses ?? [], coldStart: { queueLimit: row.coldStartQueueLimit, timeoutMs: row.coldStartTimeoutSeconds * 1000 }, versions: [], special: row.special, privateCache: row.privateCache };
      cfg.endpointsBySlug.set(row.slug, e);
      cfg.endpointsById.set(row.id, e);
    }
    if (row.versionId) {
      const v: VersionConfig = { id: row.versionId, label: row.label ?? "?", weight: row.weight ?? 0, credit: 0, shadowPercent: row.shadowPercent ?? 0, contextTokens: row.contextTokens, replicas: [], starting: 0, startingReadyAt: null, autoscaled: row.autoscaled === true };
      e.versions.push(v);
      versions.set(v.id, v);
    }
  }
  for (const r of replicas.rows) versions.get(r.endpointVersionId)?.replicas.push({ id: r.id, url: r.url, region: r.region, verified: r.verified, external: r.external });
  for (const s of starting.rows) {
    const v = versions.get(s.endpointVersionId);
    if (v) Object.assign(v, { starting: s.n, startingReadyAt: s.readyAt?.getTime() ?? null });
  }
  return cfg;
}

/**
 * Reloads happen for many reasons (a key used, a replica turning ready); an endpoint whose
 * weights did not change keeps its round-robin credits, so its served split stays exact.
 */
export function carryRoutingState(prev: GatewayConfig, next: GatewayConfig) {
  for (const [slug, e] of next.endpointsBySlug) {
    const old = prev.endpointsBySlug.get(slug);
    if (!old || old.revision !== e.revision) continue;
    for (const v of e.versions) v.credit = old.versions.find((o) => o.id === v.id)?.credit ?? 0;
  }
}
