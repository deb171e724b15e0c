import type { ActorContext } from "../auth/actor.ts";
import { pgPool } from "../db/pg-pool.ts";
import { recordAudit } from "../audit/record.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.ts";
import { findVersion } from "../call-log/keys/keyring.ts";
import { processRings } from "../call-log/keys/rings.ts";
import { registerRings } from "../call-log/keys/registry.ts";
import type { KeyVersionInput } from "./schemas.ts";

/** A gateway that has not reported for this long is shown as gone, not as holding anything. */
const REPORT_STALE_MS = 2 * 60_000;

/**
 * The call log's key versions (which is current per ring, how many rows each still covers, who
 * holds it) and what each gateway said it holds. A gateway lags when it refuses to log, logs under
 * another version than the current one, or stopped reporting.
 */
export async function keyStatus(ctx: ActorContext) {
  const pool = pgPool(ctx.db);
  const rings = processRings();
  // This app's own versions are recorded as it learns them (a new one waits to be made current).
  await registerRings(pool, rings);
  const [versions, ipRows, subjectRows, legacy, reports] = await Promise.all([
    ctx.db.subjectKeyVersion.findMany({ orderBy: [{ ring: "asc" }, { createdAt: "desc" }] }),
    pool.query<{ v: string; n: string }>(`SELECT "ipKeyVersion" AS v, count(*) AS n FROM "CallLog" WHERE "ipKeyVersion" IS NOT NULL GROUP BY 1`),
    pool.query<{ v: string; n: string }>(`SELECT "userHashKeyVersion" AS v, count(*) AS n FROM "CallLog" WHERE "userHashKeyVersion" IS NOT NULL GROUP BY 1`),
    pool.query<{ n: string }>(`SELECT count(*) AS n FROM "CallLog" WHERE "clientIp" IS NOT NULL`),
    ctx.db.gatewayKeyReport.findMany({ orderBy: { instance: "asc" } }),
  ]);
  const count = (rows: { v: string; n: string }[], v: string) => Number(rows.find((r) => r.v === v)?.n ?? 0);
  const current = new Map<string, string>();
  for (const v of versions) if (v.currentSince && !v.retiredAt && (!current.has(v.ring) || v.currentSince > versions.find((x) => x.version === current.get(v.ring))!.currentSince!)) current.set(v.ring, v.version);
  const now = Date.now();
  return {
    versions: versions.map((v) => ({
      version: v.version,
      ring: v.ring,
      fingerprint: v.fingerprint.slice(0, 16),
      createdAt: v.createdAt,
      currentSince: v.currentSince,
      retiredAt: v.retiredAt,
      current: current.get(v.ring) === v.version,
      heldHere: !!findVersion(v.ring === "special" ? rings.special : rings.standard, v.version),
      ipRows: count(ipRows.rows, v.version),
      subjectRows: count(subjectRows.rows, v.version),
    })),
    /** Rows written before IPs were encrypted; they leave with retention (or the re-key, hours not yet sealed). */
    clearIpRows: Number(legacy.rows[0]!.n),
    gateways: reports.map((g) => {
      const stale = now - g.reportedAt.getTime() > REPORT_STALE_MS;
      const behind = !g.refusing && [...current.values()].some((v) => !g.logsUnder.includes(v));
      return { instance: g.instance, holds: g.holds as Record<string, { version: string; fingerprint: string }[]>, logsUnder: g.logsUnder, refusing: g.refusing, reportedAt: g.reportedAt, state: stale ? "gone" : g.refusing ? "refusing" : behind ? "behind" : "ok" };
    }),
  };
}

/**
 * Makes a version current for its ring: new rows use it as each gateway reloads (the change
 * notifies them). Only a version this app holds, with the fingerprint recorded for it, and never a
 * retired one: a key no process here can read would make rows nobody can decrypt.
 */
export async function activateKey(ctx: ActorContext, input: KeyVersionInput) {
  const rings = processRings();
  await registerRings(pgPool(ctx.db), rings);
  return ctx.db.$transaction(async (tx) => {
    const v = await tx.subjectKeyVersion.findUnique({ where: { version: input.version } });
    if (!v) throw new NotFoundError("Key version");
    if (v.retiredAt) throw new ConflictError(`Key version ${v.version} was retired on ${v.retiredAt.toISOString().slice(0, 10)}: a retired key is never made current again.`);
    const mine = findVersion(v.ring === "special" ? rings.special : rings.standard, v.version);
    if (!mine || mine.fingerprint !== v.fingerprint) throw new InvalidInputError("version", `this app does not hold key ${v.version} as recorded: add it to the ${v.ring} ring's environment variable first`);
    const before = await tx.subjectKeyVersion.findFirst({ where: { ring: v.ring, currentSince: { not: null }, retiredAt: null }, orderBy: { currentSince: "desc" } });
    if (before?.version === v.version) return v;
    const after = await tx.subjectKeyVersion.update({ where: { version: v.version }, data: { currentSince: new Date() } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.key.activate", targetType: "key_version", targetId: v.version, before: { current: before?.version ?? null }, after: { current: v.version, ring: v.ring, fingerprint: v.fingerprint } });
    return after;
  });
}

/**
 * Retires a version no row uses any more. Client IPs move to the current key by re-keying; a
 * subject hash is one-way and cannot, so a version stays while rows hashed under it remain, until
 * retention destroys them. Once retired, gateways still holding it gain nothing from it.
 */
export async function retireKey(ctx: ActorContext, input: KeyVersionInput) {
  return ctx.db.$transaction(async (tx) => {
    const v = await tx.subjectKeyVersion.findUnique({ where: { version: input.version } });
    if (!v) throw new NotFoundError("Key version");
    if (v.retiredAt) return v;
    const current = await tx.subjectKeyVersion.findFirst({ where: { ring: v.ring, currentSince: { not: null }, retiredAt: null }, orderBy: { currentSince: "desc" } });
    if (current?.version === v.version) throw new ConflictError(`Key version ${v.version} is current: make another version current before retiring it.`);
    const [ip, subject] = await Promise.all([tx.callLog.count({ where: { ipKeyVersion: v.version } }), tx.callLog.count({ where: { userHashKeyVersion: v.version } })]);
    if (ip || subject) throw new ConflictError(`Key version ${v.version} still covers ${ip} client IP(s) and ${subject} subject hash(es): re-key the IPs, and wait for retention to destroy the hashed rows.`, { current: { ipRows: ip, subjectRows: subject } });
    const after = await tx.subjectKeyVersion.update({ where: { version: v.version }, data: { retiredAt: new Date() } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.key.retire", targetType: "key_version", targetId: v.version, before: { retiredAt: null }, after: { retiredAt: after.retiredAt, ring: v.ring } });
    return after;
  });
}
