import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { Multiset } from "./digest.ts";
import { CANONICAL_SESSION, STREAMS, type StreamName } from "./streams.ts";

const NEWLINE = 0x0a;

/** A timestamp literal for SQL that COPY cannot bind: built from a Date, so never user text. */
export const tsLiteral = (d: Date) => `'${d.toISOString()}'::timestamptz AT TIME ZONE 'UTC'`;

/**
 * Hashes a stream's rows in [from, to) hour by hour, in one sequential COPY with constant memory.
 * `where` narrows it further (a tenant past retention, a data subject); callers build it from
 * escaped literals only. Runs on the given client, so it sees that client's transaction.
 */
export async function hourDigests(client: pg.PoolClient | pg.Client, stream: StreamName, from: Date, to: Date, where = "TRUE"): Promise<Map<number, Multiset>> {
  const s = STREAMS[stream];
  await client.query(CANONICAL_SESSION);
  const sql = `COPY (SELECT ${s.columns} FROM ${s.table} WHERE ${s.time} >= ${tsLiteral(from)} AND ${s.time} < ${tsLiteral(to)} AND (${where})) TO STDOUT`;
  const out = new Map<number, Multiset>();
  const key = Buffer.alloc(13); // "2026-12-02 20": the hour the current rows belong to
  let current: Multiset | null = null;
  let carry: Buffer | null = null;
  const take = (line: Buffer) => {
    // Rows come mostly in time order: compare bytes, and decode only when the hour changes.
    if (!current || line.compare(key, 0, 13, 0, 13) !== 0) {
      line.copy(key, 0, 0, 13);
      const ms = Date.parse(`${key.toString("latin1").replace(" ", "T")}:00:00Z`);
      current = out.get(ms) ?? new Multiset();
      out.set(ms, current);
    }
    current.addLine(line);
  };
  const copy = client.query(copyTo(sql));
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    let nl: number;
    while ((nl = buf.indexOf(NEWLINE, start)) >= 0) {
      take(buf.subarray(start, nl));
      start = nl + 1;
    }
    carry = start < buf.length ? Buffer.from(buf.subarray(start)) : null;
  }
  return out;
}
