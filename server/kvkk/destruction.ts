import type pg from "pg";
import { createId } from "./id.ts";
import type { Actor, ActorContext } from "../auth/actor.ts";
import { pgPool } from "../db/pg-pool.ts";
import { HOUR_MS } from "../audit/seal/digest.ts";
import { tsLiteral } from "../audit/seal/hour-digests.ts";
import { removeRows, type Method } from "./remove-rows.ts";
import { rollUpTransfers } from "./transfer-register.ts";
import { destroyAuditIps, destroyExports, destroySubjectRequests } from "./other-stores.ts";
import { activeHolds, type Holds } from "./holds.ts";
import { effectiveRetentionDays, specialCeilingDays, type RetentionLimits } from "./retention-rule.ts";

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const TS = `::timestamptz AT TIME ZONE 'UTC'`;

/** Every other store with a period in the policy: audit events' IPs, exports, closed applications. */
async function destroyOtherStores(client: pg.PoolClient, o: { actor: Actor | null; ip?: string | null; now: Date }, holds: Holds) {
  const periods = new Map((await client.query<{ store: string; days: number | null }>(`SELECT store, "periodDays" AS days FROM "PolicyEntry"`)).rows.map((r) => [r.store, r.days]));
  const run = (store: string) => {
    const days = periods.get(store);
    return days ? { actor: o.actor, ip: o.ip, days, cutoff: new Date(o.now.getTime() - days * 86_400_000) } : null;
  };
  const audit = run("audit_ip");
  const exportsRun = run("exports");
  const requests = run("subject_requests");
  return {
    auditIp: audit ? await destroyAuditIps(client, audit) : null,
    exports: exportsRun && !holds.all ? await destroyExports(client, exportsRun) : null,
    subjectRequests: requests ? await destroySubjectRequests(client, requests, holds.subjects) : null,
  };
}

interface Policy {
  tenantId: string;
  days: number;
  method: Method;
  cutoff: Date;
}

const hourCutoff = (now: Date, days: number) => new Date(Math.floor((now.getTime() - days * 86_400_000) / HOUR_MS) * HOUR_MS);

/** Each tenant's retention (its own, else the admin's default), as a cutoff on whole hours; and the special ceiling's. */
async function policies(client: pg.PoolClient, now: Date): Promise<{ list: Policy[]; defaultDays: number; minDays: number | null; special: { days: number; cutoff: Date } }> {
  const s = await client.query<{ d: number; min: number | null; special: number }>(`SELECT "defaultRetentionDays" AS d, "trafficLogMinDays" AS min, "specialRetentionMaxDays" AS special FROM "KvkkSettings" WHERE id = 'singleton'`);
  const limits: RetentionLimits = { defaultDays: s.rows[0]?.d ?? 730, minDays: s.rows[0]?.min ?? null, specialMaxDays: s.rows[0]?.special ?? 365 };
  const r = await client.query<{ id: string; days: number | null; method: Method | null; special: boolean }>(
    `SELECT t.id, r.days, r.method, t."specialCategory" IS NOT NULL AS special FROM "Tenant" t LEFT JOIN "TenantRetention" r ON r."tenantId" = t.id`,
  );
  const ceiling = specialCeilingDays(limits);
  return {
    defaultDays: limits.defaultDays,
    minDays: limits.minDays,
    special: { days: ceiling, cutoff: hourCutoff(now, ceiling) },
    list: r.rows.map((t) => {
      const days = effectiveRetentionDays(t.days, t.special, limits);
      return { tenantId: t.id, days, method: t.method ?? "delete", cutoff: hourCutoff(now, days) };
    }),
  };
}

/**
 * Rows of endpoints marked special (KVKK Art. 6) past the special ceiling, in tenants whose own
 * retention is longer: destroyed by the tenant's method, one record per tenant and endpoint.
 */
async function specialEndpointRows(client: pg.PoolClient, o: { actor: Actor | null; ip?: string | null }, list: Policy[], special: { days: number; cutoff: Date }, holds: Holds, notHeld: string) {
  const endpoints = (await client.query<{ id: string; category: string }>(`SELECT id, "specialCategory" AS category FROM "Endpoint" WHERE "specialCategory" IS NOT NULL`)).rows;
  const records: Awaited<ReturnType<typeof removeRows>>[] = [];
  for (const e of endpoints) {
    for (const p of list) {
      if (p.cutoff.getTime() >= special.cutoff.getTime() || holds.tenants.has(p.tenantId)) continue;
      const where = `"tenantId" = ${lit(p.tenantId)} AND "endpointId" = ${lit(e.id)} AND "startedAt" < ${tsLiteral(special.cutoff)}${notHeld}`;
      const due = await client.query(`SELECT 1 FROM "CallLog" WHERE ${where} LIMIT 1`);
      if (!due.rowCount) continue;
      const policy = { days: special.days, method: p.method, cutoff: special.cutoff.toISOString(), endpointId: e.id, specialCategory: e.category, tenantDays: p.days };
      records.push(await removeRows(client, { ...o, reason: "retention", method: p.method, where, tenantId: p.tenantId, policy, periodTo: special.cutoff }));
    }
  }
  return records;
}

/** Monthly partitions whose every row is past its tenant's retention, all under "delete": dropped whole. */
async function droppablePartitions(client: pg.PoolClient, byTenant: Map<string, Policy>, holds: Holds): Promise<string[]> {
  // A held data subject's rows may sit in any month: then nothing is dropped whole.
  if (holds.subjects.length) return [];
  const parts = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"CallLog"'::regclass AND c.relname ~ '^CallLog_\\d{4}_\\d{2}$' ORDER BY 1`,
  );
  const out: string[] = [];
  const latestCutoff = Math.max(...[...byTenant.values()].map((p) => p.cutoff.getTime()));
  for (const { name } of parts.rows) {
    const [, y, m] = /^CallLog_(\d{4})_(\d{2})$/.exec(name)!;
    const end = Date.UTC(Number(y), Number(m), 1); // the first instant of the next month
    if (end > latestCutoff) continue; // no tenant's retention reaches it: no need to look inside
    const tenants = await client.query<{ tenantId: string }>(`SELECT DISTINCT "tenantId" FROM "${name}"`);
    if (!tenants.rows.length) continue; // empty months cost nothing; future months must stay
    const all = tenants.rows.every(({ tenantId }) => {
      const p = byTenant.get(tenantId);
      return p && p.method === "delete" && p.cutoff.getTime() >= end && !holds.tenants.has(tenantId);
    });
    if (all) out.push(name);
  }
  return out;
}

/**
 * The periodic destruction (KVKK's 2017 regulation: at most every 6 months): rows past each
 * tenant's retention are removed — whole monthly partitions dropped where every row in them is
 * due, else deleted or anonymised row by row — with one destruction record per tenant touched
 * (and one per dropped partition), all in one transaction.
 */
export async function runDestruction(pool: pg.Pool, opts: { actor: Actor | null; ip?: string | null; now?: Date }) {
  const now = opts.now ?? new Date();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('kule_destruction'))");
    // The transfer register first: calls abroad must be in it before their rows go.
    await rollUpTransfers(client, now);
    const { list, defaultDays, minDays, special } = await policies(client, now);
    const holds = await activeHolds(client);
    const byTenant = new Map(list.map((p) => [p.tenantId, p]));
    const records: Awaited<ReturnType<typeof removeRows>>[] = [];
    const skipped: string[] = [];
    if (holds.all) skipped.push("call_log: a legal hold on the whole call log");
    for (const name of holds.all ? [] : await droppablePartitions(client, byTenant, holds)) {
      const [, y, m] = /^CallLog_(\d{4})_(\d{2})$/.exec(name)!;
      const from = new Date(Date.UTC(Number(y), Number(m) - 1, 1));
      const to = new Date(Date.UTC(Number(y), Number(m), 1));
      const tenants = (await client.query<{ tenantId: string; n: string }>(`SELECT "tenantId", count(*) AS n FROM "${name}" GROUP BY 1`)).rows;
      records.push(
        await removeRows(client, {
          actor: opts.actor,
          ip: opts.ip,
          reason: "retention",
          method: "delete",
          where: `"startedAt" >= ${tsLiteral(from)} AND "startedAt" < ${tsLiteral(to)}`,
          tenantId: null,
          policy: { partition: name, tenants: tenants.map((t) => ({ tenantId: t.tenantId, rows: Number(t.n), days: byTenant.get(t.tenantId)!.days })) },
          periodTo: to,
          partitions: [name],
        }),
      );
    }
    // A held subject's rows stay, in every tenant.
    const notHeld = holds.subjects.length ? ` AND ("userHash" IS NULL OR "userHash" NOT IN (${holds.subjects.map(lit).join(", ")}))` : "";
    for (const p of holds.all ? [] : list) {
      if (holds.tenants.has(p.tenantId)) {
        skipped.push(`call_log of ${p.tenantId}: legal hold`);
        continue;
      }
      const where = `"tenantId" = ${lit(p.tenantId)} AND "startedAt" < ${tsLiteral(p.cutoff)}${notHeld}`;
      const due = await client.query(`SELECT 1 FROM "CallLog" WHERE ${where} LIMIT 1`);
      if (!due.rowCount) continue;
      records.push(await removeRows(client, { actor: opts.actor, ip: opts.ip, reason: "retention", method: p.method, where, tenantId: p.tenantId, policy: { days: p.days, method: p.method, cutoff: p.cutoff.toISOString(), defaultDays, trafficLogMinDays: minDays }, periodTo: p.cutoff }));
    }
    if (!holds.all) records.push(...(await specialEndpointRows(client, { actor: opts.actor, ip: opts.ip }, list, special, holds, notHeld)));
    const others = await destroyOtherStores(client, { actor: opts.actor, ip: opts.ip, now }, holds);
    const rows = records.reduce((n, r) => n + r.rowCount, 0);
    await client.query(`INSERT INTO "DestructionRun" (id, "startedAt", "finishedAt", "actorEmail", summary) VALUES ($1, $2${TS}, $3${TS}, $4, $5)`, [
      createId(),
      now,
      new Date(),
      opts.actor?.email ?? null,
      JSON.stringify({ callLog: { rows, records: records.map((r) => r.id), trafficLogMinDays: minDays }, ...others, holds: { all: holds.all, tenants: [...holds.tenants], subjects: holds.subjectHolds }, skipped }),
    ]);
    await client.query(`UPDATE "KvkkSettings" SET "lastDestructionAt" = $1::timestamptz AT TIME ZONE 'UTC', "updatedAt" = now() WHERE id = 'singleton'`, [now]);
    await client.query("COMMIT");
    return { records, rows, others };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** A destruction an admin starts by hand, recorded as theirs. */
export function runDestructionNow(ctx: ActorContext) {
  return runDestruction(pgPool(ctx.db), { actor: ctx.actor, ip: ctx.ip });
}

/** Runs the destruction when the configured cycle (≤ 182 days) has passed since the last run. */
export async function destructionIfDue(pool: pg.Pool, now = new Date()) {
  const s = await pool.query<{ interval: number; last: Date | null }>(`SELECT "destructionIntervalDays" AS interval, "lastDestructionAt" AT TIME ZONE 'UTC' AS last FROM "KvkkSettings" WHERE id = 'singleton'`);
  const row = s.rows[0];
  if (!row) return null;
  if (row.last && now.getTime() - row.last.getTime() < row.interval * 86_400_000) return null;
  return runDestruction(pool, { actor: null, now });
}
