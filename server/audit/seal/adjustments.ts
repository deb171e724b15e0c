import { createHash } from "node:crypto";
import type pg from "pg";
import type { HourDigest } from "./digest.ts";

/**
 * What a destruction did to one sealed call-log hour: the hour's rows hashed just before it
 * (which must be what the seal and earlier destructions say, or the destruction would launder a
 * forgery) and just after it.
 */
export interface Adjustment {
  start: string;
  beforeCount: number;
  beforeDigest: string;
  afterCount: number;
  afterDigest: string;
}

/** Stable text of the adjustments (jsonb reorders keys): its SHA-256 goes into the sealed audit event. */
export function adjustmentsSha256(adjustments: Adjustment[]): string {
  const text = adjustments.map((a) => `${a.start}|${a.beforeCount}|${a.beforeDigest}|${a.afterCount}|${a.afterDigest}`).join("\n");
  return createHash("sha256").update(text).digest("hex");
}

/**
 * What an hour's rows must hash to now: the sealed digest, carried through each destruction in
 * the order they ran. A destruction that found the hour other than expected carries nothing: its
 * `broken` names it, and the hour stays held to what it was before.
 */
export function expectedNow<A extends Adjustment>(sealed: HourDigest, adjustments: readonly A[]): HourDigest & { broken: A | null } {
  let now = sealed;
  for (const a of adjustments) {
    if (a.beforeCount !== now.count || a.beforeDigest !== now.digest) return { ...now, broken: a };
    now = { count: a.afterCount, digest: a.afterDigest };
  }
  return { ...now, broken: null };
}

/**
 * Whether a stored record's adjustments are of this scheme. Records written under the earlier
 * additive digest (before migration 20261203060000_seal_ordered_sha256 re-sealed every hour) carry
 * removed/added digests instead; they describe hours sealed under the old scheme and excuse nothing.
 */
export function isCurrentScheme(adjustments: unknown): adjustments is Adjustment[] {
  return Array.isArray(adjustments) && adjustments.every((a) => typeof a === "object" && a !== null && typeof (a as Adjustment).beforeDigest === "string" && typeof (a as Adjustment).afterDigest === "string");
}

/** An adjustment with the destruction record it came from, to name it when it does not fit. */
export type RecordedAdjustment = Adjustment & { recordId: string };

/**
 * The call-log hours destructions changed, by hour and in the order the destructions ran, from
 * records whose adjustments match their sealed audit event; `forged` is the earliest record that
 * does not match (it excuses nothing, and the chain check names it).
 */
export async function loadAdjustments(db: pg.Pool | pg.PoolClient, stream: "call_log" | "audit_event" = "call_log"): Promise<{ byHour: Map<number, RecordedAdjustment[]>; forged: { id: string; hour: number } | null }> {
  // Destructions of audit events' IPs adjust the audit stream; every other store is the call log's.
  const recs = await db.query<{ id: string; adjustments: unknown; sealedSha: string | null }>(
    `SELECT d.id, d.adjustments, (SELECT e.after->>'adjustmentsSha256' FROM "AuditEvent" e
        WHERE e.action = 'kvkk.destruction' AND e."targetType" = 'destruction' AND e."targetId" = d.id ORDER BY e.id LIMIT 1) AS "sealedSha"
       FROM "DestructionRecord" d WHERE (d.store = 'audit_ip') = $1 ORDER BY d."runAt"`,
    [stream === "audit_event"],
  );
  const byHour = new Map<number, RecordedAdjustment[]>();
  let forged: { id: string; hour: number } | null = null;
  for (const r of recs.rows) {
    if (!isCurrentScheme(r.adjustments)) continue;
    if (r.sealedSha !== adjustmentsSha256(r.adjustments)) {
      const hour = Math.min(...r.adjustments.map((x) => Date.parse(x.start)));
      if (!forged || hour < forged.hour) forged = { id: r.id, hour };
      continue;
    }
    for (const x of r.adjustments) {
      const h = Date.parse(x.start);
      byHour.set(h, [...(byHour.get(h) ?? []), { ...x, recordId: r.id }]);
    }
  }
  return { byHour, forged };
}
