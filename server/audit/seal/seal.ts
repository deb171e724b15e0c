import type pg from "pg";
import { EMPTY_HOUR, GENESIS, HOUR_MS, floorHour, segmentHash } from "./digest.ts";
import { hourDigests, hoursBetween } from "./hour-digests.ts";
import { STREAMS, STREAM_NAMES, type StreamName } from "./streams.ts";
import { sealKey, type SealKey } from "./signing-key.ts";
import { signHeadIfNew } from "./heads.ts";

export interface SealResult {
  stream: StreamName;
  segments: number;
  rows: number;
  through: Date | null;
}

/**
 * Seals every whole hour of a stream that ended more than `graceMinutes` ago and is not sealed
 * yet, in order, each segment chained to the one before. The grace period is there for rows
 * that arrive late (a gateway replaying its spool after a database outage): a row that lands in
 * an hour already sealed is, to the check, indistinguishable from one inserted by hand.
 */
export async function sealStream(pool: pg.Pool, stream: StreamName, opts: { now?: Date; graceMinutes: number; key?: SealKey }): Promise<SealResult> {
  const now = opts.now ?? new Date();
  const s = STREAMS[stream];
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // One sealer per stream at a time, across app processes.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`kule_seal_${stream}`]);
    const last = await client.query<{ start: Date; hash: string }>(
      `SELECT start AT TIME ZONE 'UTC' AS start, hash FROM "SealSegment" WHERE stream = $1 ORDER BY start DESC LIMIT 1`,
      [stream],
    );
    let from: number;
    if (last.rows[0]) from = last.rows[0].start.getTime() + HOUR_MS;
    else {
      const first = await client.query<{ t: Date | null }>(`SELECT min(${s.time}) AT TIME ZONE 'UTC' AS t FROM ${s.table}`);
      if (!first.rows[0]?.t) {
        await client.query("COMMIT");
        return { stream, segments: 0, rows: 0, through: null };
      }
      from = floorHour(first.rows[0].t.getTime());
    }
    const to = floorHour(now.getTime() - opts.graceMinutes * 60_000);
    if (from >= to) {
      // A chain sealed before heads were signed gets its head signed once.
      await signHeadIfNew(client, stream, opts.key ?? sealKey());
      await client.query("COMMIT");
      return { stream, segments: 0, rows: 0, through: last.rows[0] ? new Date(from) : null };
    }
    const hours = hoursBetween(from, to);
    const digests = await hourDigests(client, stream, hours);
    let prev = last.rows[0]?.hash ?? GENESIS;
    const starts: Date[] = [];
    const counts: number[] = [];
    const digestHex: string[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    let rows = 0;
    for (const h of hours) {
      const { count, digest } = digests.get(h) ?? EMPTY_HOUR;
      const start = new Date(h);
      const hash = segmentHash(prev, stream, start, count, digest);
      starts.push(start);
      counts.push(count);
      digestHex.push(digest);
      prevs.push(prev);
      hashes.push(hash);
      prev = hash;
      rows += count;
    }
    await client.query(
      `INSERT INTO "SealSegment" (stream, start, "rowCount", digest, "prevHash", hash)
       SELECT $1, s AT TIME ZONE 'UTC', c, d, p, h FROM unnest($2::timestamptz[], $3::int[], $4::text[], $5::text[], $6::text[]) AS u(s, c, d, p, h)`,
      [stream, starts, counts, digestHex, prevs, hashes],
    );
    await signHeadIfNew(client, stream, opts.key ?? sealKey());
    await client.query("COMMIT");
    return { stream, segments: starts.length, rows, through: new Date(to) };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

export async function sealAll(pool: pg.Pool, opts: { now?: Date; graceMinutes?: number } = {}): Promise<SealResult[]> {
  const graceMinutes = opts.graceMinutes ?? (await pool.query<{ g: number }>(`SELECT "sealGraceMinutes" AS g FROM "KvkkSettings" WHERE id = 'singleton'`)).rows[0]?.g ?? 120;
  const out: SealResult[] = [];
  for (const stream of STREAM_NAMES) out.push(await sealStream(pool, stream, { now: opts.now, graceMinutes }));
  return out;
}
