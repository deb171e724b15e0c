/**
 * The demo's history: 90 days of call logs generated inside PostgreSQL by one INSERT … SELECT over
 * generate_series (hours × tenant/endpoint pairs × calls), following the demo's daily and weekly
 * rhythm (scripts/lib/day-shape.ts) with a few incidents, with the season's infrastructure cost,
 * then rolled up (hours and days) so the usage, cost, SLA and residency pages show a season.
 * Seeded once: a DemoSeedMarker row records it (rows, range, milliseconds), and a restart finds
 * it and seeds nothing.
 *
 * What the seeded rows respect:
 * - budgets and credit limits: the call log's insert trigger (kule_live_spend) adds the rows'
 *   charges to TenantMonthSpend; the volume keeps the current month far below every tenant's
 *   budget and credit limit, and the seed checks it (HistoryResult.monthSpend);
 * - the audit seals: a row in an hour already sealed reads as tampering, so history is seeded only
 *   into a call log no seal covers yet (a fresh demo), and refused otherwise, saying why;
 * - retention: no seeded tenant has its own retention, and the default is 730 days, so 90 days
 *   of history outlive the destruction job.
 */
import { Prisma, type PrismaClient } from "../../server/db/generated/client.ts";
import { rollupHours } from "../../server/usage/rollup.ts";
import { refreshDirtyDays } from "../../server/usage/daily.ts";
import { costInputs, splitHourCost } from "../../server/usage/cost.ts";
import { HOURLY_LOAD, ISTANBUL_UTC_OFFSET_HOURS, WEEKDAY_LOAD } from "../../scripts/lib/day-shape.ts";
import { HISTORY_MIX, INCIDENTS, type Incident } from "./history-mix.ts";

export const HISTORY_MARKER = "call-log-history";
const HOUR = 3_600_000;

export interface HistoryResult {
  seeded: boolean;
  /** Why nothing was seeded (already seeded, or a sealed call log). */
  reason?: string;
  rows: number;
  from: Date;
  to: Date;
  ms: number;
  /** Of which the INSERT … SELECT, and the hourly and daily roll-ups. */
  insertMs?: number;
  rollupMs?: number;
  /** Each tenant's charges this month after seeding, against its budget and credit limit. */
  monthSpend: { tenant: string; spent: string; budget: string | null; creditLimit: string | null }[];
}

interface Pair {
  idx: number;
  tenant: string;
  key: string;
  endpoint: string;
  version: string;
  region: string;
  kind: string;
  perHour: number;
}

/** Every seeded tenant × endpoint the mix names, with its key, the stable version and the pool's region. */
async function pairs(db: PrismaClient): Promise<Pair[]> {
  const out: Pair[] = [];
  for (const m of HISTORY_MIX) {
    const tenant = await db.tenant.findUnique({ where: { slug: m.tenant }, include: { apiKeys: { where: { revokedAt: null }, take: 1, orderBy: { createdAt: "asc" } } } });
    const endpoint = await db.endpoint.findUnique({ where: { slug: m.endpoint }, include: { nodePool: true, versions: { orderBy: { weight: "desc" }, take: 1 } } });
    if (!tenant?.apiKeys[0] || !endpoint?.versions[0]) throw new Error(`History needs tenant ${m.tenant} with a key and endpoint ${m.endpoint}: seed the demo first.`);
    out.push({ idx: out.length, tenant: tenant.id, key: tenant.apiKeys[0].id, endpoint: endpoint.id, version: endpoint.versions[0].id, region: endpoint.nodePool.region, kind: m.kind, perHour: m.perPeakHour });
  }
  return out;
}

const HOURS = `(ARRAY[${HOURLY_LOAD.join(", ")}]::float8[])`;
const WEEKDAYS = `(ARRAY[${WEEKDAY_LOAD.join(", ")}]::float8[])`;

/** The single statement: hours × pairs × calls, with the shape, the incidents and each call's latency, tokens and outcome. */
const HISTORY_SQL = `
INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", region, "clientIp", "startedAt", "endedAt", "ttftMs", status, "errorClass", "promptTokens", "completionTokens")
SELECT 'hist-' || to_char(h.h, 'YYYYMMDDHH24') || '-' || p.idx || '-' || g.i,
       p.tenant, p.key, p.endpoint, p.version, p.region, '10.' || (40 + p.idx) || '.' || (g.i % 200) || '.' || (1 + g.i % 250),
       c.at, c.at + make_interval(secs => c.lat / 1000.0), CASE WHEN c.ok AND p.kind = 'chat' THEN c.ttft END,
       c.status, c.err, CASE WHEN c.ok THEN c.prompt ELSE 0 END, CASE WHEN c.ok THEN c.completion ELSE 0 END
  FROM generate_series($1::timestamp, $2::timestamp, interval '1 hour') AS h(h)
 CROSS JOIN jsonb_to_recordset($3::jsonb) AS p(idx int, tenant text, key text, endpoint text, version text, region text, kind text, "perHour" float8)
 CROSS JOIN LATERAL (
   SELECT coalesce(max(i."errorRate") FILTER (WHERE i.endpoint = p.endpoint), 0) AS "errorRate",
          coalesce(max(i."latencyFactor") FILTER (WHERE i.endpoint = p.endpoint), 1) AS "latencyFactor"
     FROM jsonb_to_recordset($4::jsonb) AS i(endpoint text, "from" timestamp, "to" timestamp, "errorRate" float8, "latencyFactor" float8)
    WHERE h.h >= i."from" AND h.h < i."to"
 ) inc
 CROSS JOIN LATERAL (
   SELECT greatest(0, round(p."perHour" * ${HOURS}[1 + extract(hour FROM h.h + interval '${ISTANBUL_UTC_OFFSET_HOURS} hours')::int]
                                       * ${WEEKDAYS}[1 + extract(dow FROM h.h + interval '${ISTANBUL_UTC_OFFSET_HOURS} hours')::int]
                                       * (0.85 + 0.3 * random())))::int AS n
 ) v
 CROSS JOIN LATERAL generate_series(1, v.n) AS g(i)
 CROSS JOIN LATERAL (
   SELECT x.*, x.roll >= 0.004 + inc."errorRate" AS ok,
          CASE WHEN x.roll < 0.004 THEN 502 WHEN x.roll < 0.004 + inc."errorRate" THEN 503 ELSE 200 END AS status,
          CASE WHEN x.roll < 0.004 THEN 'upstream_broken' WHEN x.roll < 0.004 + inc."errorRate" THEN 'no_ready_replica' END AS err
     FROM (
       -- g.i is named here so the draws are made per call: without it this subquery depends only
       -- on the hour and the pair, and PostgreSQL evaluates it once for all of their calls
       -- (every call of an hour at one instant, with one latency, one outcome).
       SELECT g.i, h.h + random() * interval '1 hour' AS at, random() AS roll,
              CASE p.kind WHEN 'chat' THEN 40 + (random() * 560)::int WHEN 'embed' THEN 8 + (random() * 190)::int ELSE 0 END AS prompt,
              CASE p.kind WHEN 'chat' THEN 16 + (random() ^ 2 * 220)::int ELSE 0 END AS completion,
              (60 + random() * 160) * inc."latencyFactor" AS ttft,
              inc."latencyFactor" * CASE p.kind
                WHEN 'chat' THEN 220 + random() * 260 + (random() ^ 2 * 220) * 9
                WHEN 'embed' THEN 14 + random() * 50 + random() ^ 12 * 180
                ELSE 22 + random() * 110 + random() ^ 10 * 250 END AS lat
     ) x
 ) c`;

/**
 * Seeds `days` days of history ending at the last whole hour before `now`, once. `scale`
 * multiplies every pair's calls (1 for the demo; tests use less).
 */
export async function seedHistory(db: PrismaClient, opts: { days?: number; now?: Date; scale?: number } = {}): Promise<HistoryResult> {
  const t0 = Date.now();
  const now = opts.now ?? new Date();
  const to = new Date(Math.floor(now.getTime() / HOUR) * HOUR - HOUR);
  const from = new Date(to.getTime() - ((opts.days ?? 90) * 24 - 1) * HOUR);
  const none = (reason: string): HistoryResult => ({ seeded: false, reason, rows: 0, from, to, ms: Date.now() - t0, monthSpend: [] });

  const marker = await db.demoSeedMarker.findUnique({ where: { name: HISTORY_MARKER } });
  if (marker) return none(`already seeded on ${marker.seededAt.toISOString()}`);
  const sealed = await db.sealSegment.findFirst({ where: { stream: "call_log" }, orderBy: { start: "asc" } });
  if (sealed) return none(`the call log is sealed from ${sealed.start.toISOString()}: rows added to sealed hours would read as tampering (start the demo on a fresh data directory for its history)`);

  const list = (await pairs(db)).map((p) => ({ ...p, perHour: p.perHour * (opts.scale ?? 1) }));
  // Each month's partition first, so no row lands in the default partition.
  for (let m = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1); m <= to.getTime(); m = Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1)) {
    await db.$executeRaw`SELECT kule_call_log_partition(${new Date(m)}::timestamp)`;
  }
  const incidents = INCIDENTS.map((i) => incidentRange(i, to, list));
  const rows = await db.$executeRawUnsafe(HISTORY_SQL, from, to, JSON.stringify(list), JSON.stringify(incidents));
  const insertMs = Date.now() - t0;
  await seedCostHours(db, from, to, now);
  await rollupHours(db, from, to);
  await refreshDirtyDays(db);
  const rollupMs = Date.now() - t0 - insertMs;
  // The demo tenants and keys have been around for the season their calls cover.
  await db.tenant.updateMany({ where: { id: { in: list.map((p) => p.tenant) }, createdAt: { gt: from } }, data: { createdAt: from } });
  await db.apiKey.updateMany({ where: { id: { in: list.map((p) => p.key) }, createdAt: { gt: from } }, data: { createdAt: from } });

  const monthSpend = await spendNow(db, list.map((p) => p.tenant), now);
  const ms = Date.now() - t0;
  await db.demoSeedMarker.create({ data: { name: HISTORY_MARKER, details: { rows, from: from.toISOString(), to: to.toISOString(), ms, insertMs, rollupMs, incidents } as Prisma.InputJsonValue } });
  return { seeded: true, rows, from, to, ms, insertMs, rollupMs, monthSpend };
}

function incidentRange(i: Incident, to: Date, list: Pair[]) {
  const endpoint = list.find((p) => p.kind === i.kind)?.endpoint;
  const start = Math.floor(to.getTime() / 86_400_000) * 86_400_000 - i.daysAgo * 86_400_000 + (i.utcHour * HOUR);
  return { endpoint, from: new Date(start), to: new Date(start + i.hours * HOUR), errorRate: i.errorRate, latencyFactor: i.latencyFactor, what: i.what };
}

async function spendNow(db: PrismaClient, tenantIds: string[], now: Date) {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const tenants = await db.tenant.findMany({ where: { id: { in: [...new Set(tenantIds)] } }, include: { monthSpend: { where: { month } } } });
  return tenants.map((t) => ({ tenant: t.slug, spent: String(t.monthSpend[0]?.spent ?? 0), budget: t.monthlyBudget?.toString() ?? null, creditLimit: t.creditLimit?.toString() ?? null }));
}

/**
 * The infrastructure cost of the seeded hours, so the cost pages set revenue against cost for the
 * whole season: the fleet running at seeding time (its replicas, the hardware rates), as if it
 * had held its devices every hour. Hours already computed are left as they are.
 */
async function seedCostHours(db: PrismaClient, from: Date, to: Date, now: Date) {
  const current = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
  const { devices, holdings } = await costInputs(db, current, now.getTime());
  const allSeason = holdings.map((h) => ({ ...h, from: -Infinity, to: Infinity }));
  const { byEndpoint, idle } = splitHourCost(current.getTime(), devices, allSeason);
  const subjects = [...[...byEndpoint].map(([subject, v]) => ({ subject, ...v })), { subject: "idle", ...idle }].map((v) => ({ subject: v.subject, deviceHours: v.deviceHours.toString(), cost: v.cost.toString() }));
  await db.$executeRawUnsafe(
    `INSERT INTO "CostHour" (hour, subject, "deviceHours", cost, "computedAt")
     SELECT h, s.subject, s."deviceHours", s.cost, h + interval '1 hour'
       FROM generate_series($1::timestamp, $2::timestamp, interval '1 hour') AS h
      CROSS JOIN jsonb_to_recordset($3::jsonb) AS s(subject text, "deviceHours" numeric, cost numeric)
     ON CONFLICT DO NOTHING`,
    from,
    to,
    JSON.stringify(subjects),
  );
}
