import { createHash } from "node:crypto";
import type pg from "pg";
import { copyOut } from "../../db/copy-out.ts";
import { EMPTY_HOUR, HOUR_MS, type HourDigest } from "./digest.ts";
import { CANONICAL_SESSION, STREAMS, type StreamName } from "./streams.ts";

/** A timestamp literal for SQL that COPY cannot bind: built from a Date, so never user text. */
export const tsLiteral = (d: Date) => `'${d.toISOString()}'::timestamptz AT TIME ZONE 'UTC'`;

type Client = pg.PoolClient | pg.Client;

/** One hour's digest: its rows in the stream's order, COPY's bytes hashed as they arrive. */
async function hourDigest(client: Client, stream: StreamName, hour: number): Promise<HourDigest> {
  const s = STREAMS[stream];
  const sql = `COPY (SELECT ${s.columns} FROM ${s.table} WHERE ${s.time} >= ${tsLiteral(new Date(hour))} AND ${s.time} < ${tsLiteral(new Date(hour + HOUR_MS))} ORDER BY ${s.order}) TO STDOUT`;
  const h = createHash("sha256");
  const copy = copyOut(client, sql);
  for await (const chunk of copy.stream) h.update(chunk);
  return { count: await copy.rowCount(), digest: h.digest("hex") };
}

/**
 * The hours in [from, to) holding rows, one index probe each (a loose index scan), so a sparse log
 * (a demo left idle for months) does not cost a COPY per empty hour.
 */
async function hoursWithRows(client: Client, stream: StreamName, from: number, to: number): Promise<Set<number>> {
  const s = STREAMS[stream];
  const end = tsLiteral(new Date(to));
  const { rows } = await client.query<{ hour: Date }>(
    `WITH RECURSIVE h AS (
       SELECT date_trunc('hour', min(${s.time})) AS hour FROM ${s.table} WHERE ${s.time} >= ${tsLiteral(new Date(from))} AND ${s.time} < ${end}
       UNION ALL
       SELECT (SELECT date_trunc('hour', min(${s.time})) FROM ${s.table} WHERE ${s.time} >= h.hour + interval '1 hour' AND ${s.time} < ${end}) FROM h WHERE h.hour IS NOT NULL
     ) SELECT hour AT TIME ZONE 'UTC' AS hour FROM h WHERE hour IS NOT NULL`,
  );
  return new Set(rows.map((r) => r.hour.getTime()));
}

/**
 * The digests of the given hours of a stream (an hour without rows is EMPTY_HOUR), with constant
 * memory. The hours are shared out among the clients as each finishes one, so PostgreSQL printing
 * rows on one connection and this process hashing another's overlap. Each client runs in its own
 * transaction (or the caller's): give every client the same snapshot for a consistent answer.
 */
export async function hourDigests(clients: Client | Client[], stream: StreamName, hours: Iterable<number>): Promise<Map<number, HourDigest>> {
  const list = Array.isArray(clients) ? clients : [clients];
  const wanted = [...hours];
  const out = new Map<number, HourDigest>();
  if (!wanted.length) return out;
  const withRows = await hoursWithRows(list[0]!, stream, Math.min(...wanted), Math.max(...wanted) + HOUR_MS);
  const queue = wanted.filter((h) => withRows.has(h));
  for (const h of wanted) if (!withRows.has(h)) out.set(h, EMPTY_HOUR);
  let next = 0;
  await Promise.all(
    list.map(async (client) => {
      await client.query(CANONICAL_SESSION);
      try {
        while (next < queue.length) {
          const hour = queue[next++]!;
          out.set(hour, await hourDigest(client, stream, hour));
        }
      } catch (e) {
        next = queue.length; // the others stop after their current hour
        throw e;
      }
    }),
  );
  return out;
}

/** Every hour in [from, to). */
export function hoursBetween(from: number, to: number): number[] {
  const out: number[] = [];
  for (let h = from; h < to; h += HOUR_MS) out.push(h);
  return out;
}
