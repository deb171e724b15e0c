import type pg from "pg";
import type { Actor, ActorContext } from "../auth/actor.ts";
import { pgPool } from "../db/pg-pool.ts";
import { recordAuditSql } from "../audit/record.ts";
import { decryptIp, encryptIp, findVersion, holdsFingerprint, ipIndexWith, type KeyVersion, type RingName } from "../call-log/keys/keyring.ts";
import { processRings, type Rings } from "../call-log/keys/rings.ts";
import { currentKeys } from "../call-log/keys/registry.ts";
import type { RekeyInput } from "./schemas.ts";
import { misplacedIps, SPECIAL_ROW } from "./ring-move.ts";

interface Moved {
  id: string;
  at: string;
  enc: string;
  idx: string;
  version: string;
}

async function write(client: pg.PoolClient, rows: Moved[], clearIp: boolean) {
  if (!rows.length) return;
  await client.query(
    `UPDATE "CallLog" c SET "clientIpEnc" = v.enc, "clientIpHash" = v.idx, "ipKeyVersion" = v.version${clearIp ? `, "clientIp" = NULL` : ""}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(id, at, enc, idx, version)
      WHERE c."requestId" = v.id AND c."startedAt" = v.at::timestamp`,
    [rows.map((r) => r.id), rows.map((r) => r.at), rows.map((r) => r.enc), rows.map((r) => r.idx), rows.map((r) => r.version)],
  );
}

/**
 * Hours already sealed hash the clear IP column: encrypting a row there would break its seal, so
 * clear IPs are encrypted only in hours not sealed yet, and sealed ones leave with retention.
 */
async function unsealedFrom(client: pg.PoolClient): Promise<string | null> {
  const r = await client.query<{ end: string | null }>(`SELECT (max(start) + interval '1 hour')::text AS end FROM "SealSegment" WHERE stream = 'call_log'`);
  return r.rows[0]!.end;
}

/**
 * One batch of re-keying, in one transaction under the sealer's lock: client IPs under an older
 * version of their ring, or under the other ring since their tenant or endpoint was marked special
 * (or unmarked), are decrypted and encrypted again (a fresh nonce, the new index) under the current
 * version of the ring the row belongs to now. The seal hashes neither column, so sealed hours move
 * too, as with a rotation; clear IPs of rows from before encryption, in hours not sealed yet, are encrypted.
 * Recorded as one audit event. Subject hashes are one-way and keep their version.
 */
export async function rekeyBatch(pool: pg.Pool, o: { actor: Actor | null; ip?: string | null; batch: number; rings?: Rings }) {
  const rings = o.rings ?? processRings();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('kule_seal_call_log'))");
    const current = await currentKeys(client);
    const keys: Partial<Record<RingName, KeyVersion>> = {};
    const skipped: string[] = [];
    for (const ring of ["standard", "special"] as const) {
      const rec = current[ring];
      if (rec && holdsFingerprint(rings[ring], rec.version, rec.fingerprint)) keys[ring] = findVersion(rings[ring], rec.version)!;
      else skipped.push(`${ring}: this process does not hold the current key${rec ? ` ${rec.version}` : ""}`);
    }
    const moved: Record<string, number> = {};
    const toRing: Partial<Record<RingName, number>> = {};
    let unreadable = 0;
    let left = o.batch;
    for (const ring of ["standard", "special"] as const) {
      const to = keys[ring];
      if (!to || left <= 0) continue;
      // Rows under an older version of their ring, or under the other ring since their tenant or endpoint was (un)marked special.
      const r = await client.query<{ id: string; at: string; enc: string; version: string }>(
        `SELECT c."requestId" AS id, c."startedAt"::text AS at, c."clientIpEnc" AS enc, c."ipKeyVersion" AS version FROM "CallLog" c
          WHERE ${misplacedIps(ring, "$1")} LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [to.version, left],
      );
      const rows: Moved[] = [];
      for (const row of r.rows) {
        const from = findVersion(rings.standard, row.version) ?? findVersion(rings.special, row.version);
        const ip = from ? decryptIp(from, row.enc, row.id) : null;
        if (!ip) {
          unreadable++;
          continue;
        }
        rows.push({ id: row.id, at: row.at, enc: encryptIp(to, ip, row.id), idx: ipIndexWith(to, ip), version: to.version });
        moved[row.version] = (moved[row.version] ?? 0) + 1;
        if (from!.ring !== ring) toRing[ring] = (toRing[ring] ?? 0) + 1;
      }
      await write(client, rows, false);
      left -= r.rows.length;
    }
    let encryptedClear = 0;
    if (left > 0 && keys.standard && keys.special) {
      const from = await unsealedFrom(client);
      const r = await client.query<{ id: string; at: string; ip: string; special: boolean }>(
        `SELECT c."requestId" AS id, c."startedAt"::text AS at, c."clientIp" AS ip, ${SPECIAL_ROW} AS special FROM "CallLog" c
          WHERE c."clientIp" IS NOT NULL${from ? ` AND c."startedAt" >= $2::timestamp` : ""} LIMIT $1 FOR UPDATE SKIP LOCKED`,
        from ? [left, from] : [left],
      );
      const rows = r.rows.map((row) => {
        const k = row.special ? keys.special! : keys.standard!;
        return { id: row.id, at: row.at, enc: encryptIp(k, row.ip, row.id), idx: ipIndexWith(k, row.ip), version: k.version };
      });
      await write(client, rows, true);
      encryptedClear = rows.length;
    }
    const rekeyed = Object.values(moved).reduce((a, b) => a + b, 0);
    let remaining = 0;
    for (const ring of ["standard", "special"] as const) {
      const to = keys[ring];
      if (to) remaining += Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "CallLog" c WHERE ${misplacedIps(ring, "$1")}`, [to.version])).rows[0]!.n);
    }
    const summary = { rekeyed, from: moved, movedToRing: toRing, encryptedClear, unreadable, remaining, skipped, to: Object.fromEntries(Object.entries(keys).map(([ring, k]) => [ring, k.version])) };
    if (rekeyed || encryptedClear || unreadable || o.actor) await recordAuditSql(client, { actor: o.actor, ip: o.ip ?? null, action: "kvkk.key.rekey", targetType: "key_version", targetId: summary.to.standard ?? null, after: summary });
    await client.query("COMMIT");
    return summary;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

export const rekeyNow = (ctx: ActorContext, input: RekeyInput) => rekeyBatch(pgPool(ctx.db), { actor: ctx.actor, ip: ctx.ip, batch: input.batch });
