import type pg from "pg";
import { EMPTY_HOUR, GENESIS, HOUR_MS, segmentHash } from "./digest.ts";
import { hourDigests, tsLiteral } from "./hour-digests.ts";
import { STREAMS, STREAM_NAMES, type StreamName } from "./streams.ts";
import { expectedNow, loadAdjustments, type RecordedAdjustment } from "./adjustments.ts";
import { checkHeads, signedHeads } from "./heads.ts";
import { sealKey } from "./signing-key.ts";

export interface BadSegment {
  stream: StreamName;
  start: string;
  end: string;
  reason: string;
  sealedRows: number;
  actualRows: number;
}

export interface StreamReport {
  stream: StreamName;
  segments: number;
  rows: number;
  sealedThrough: string | null;
  firstBad: BadSegment | null;
}

export interface VerifyReport {
  ok: boolean;
  /** The database's own signed heads, checked under the seal key: how many, and the first that fails. */
  heads: { checked: number; otherKeys: number; problem: string | null };
  rows: number;
  ms: number;
  rowsPerSecond: number;
  streams: StreamReport[];
  /** The earliest bad segment over all streams: what the button and the command name. */
  firstBad: BadSegment | null;
}

interface SegmentRow {
  start: Date;
  rowCount: number;
  digest: string;
  prevHash: string;
  hash: string;
}

async function verifyStream(clients: [pg.PoolClient, ...pg.PoolClient[]], stream: StreamName, adjustments: Map<number, RecordedAdjustment[]>): Promise<StreamReport> {
  const client = clients[0];
  const segs = (
    await client.query<SegmentRow>(
      `SELECT start AT TIME ZONE 'UTC' AS start, "rowCount", digest, "prevHash", hash FROM "SealSegment" WHERE stream = $1 ORDER BY start`,
      [stream],
    )
  ).rows;
  const report: StreamReport = { stream, segments: segs.length, rows: 0, sealedThrough: null, firstBad: null };
  if (!segs.length) return report;
  const first = segs[0]!.start.getTime();
  const end = segs[segs.length - 1]!.start.getTime() + HOUR_MS;
  report.sealedThrough = new Date(end).toISOString();
  const bad = (start: number, reason: string, sealedRows: number, actualRows: number): StreamReport => ({
    ...report,
    firstBad: { stream, start: new Date(start).toISOString(), end: new Date(start + HOUR_MS).toISOString(), reason, sealedRows, actualRows },
  });

  const s = STREAMS[stream];
  const before = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${s.table} WHERE ${s.time} < ${tsLiteral(new Date(first))}`);
  if (Number(before.rows[0]!.n) > 0) return bad(first - HOUR_MS, "rows dated before the first sealed segment", 0, Number(before.rows[0]!.n));

  // Both connections share out the hours: PostgreSQL printing rows and this process hashing
  // them use the two cores at once instead of taking turns.
  const digests = await hourDigests(clients, stream, segs.map((seg) => seg.start.getTime()));
  let prev = GENESIS;
  let expectStart = first;
  for (const seg of segs) {
    const h = seg.start.getTime();
    const actual = digests.get(h) ?? EMPTY_HOUR;
    report.rows += actual.count;
    if (h !== expectStart || seg.prevHash !== prev || segmentHash(prev, stream, seg.start, seg.rowCount, seg.digest) !== seg.hash) {
      return bad(h, "the seal itself was altered (chain broken)", seg.rowCount, actual.count);
    }
    const expected = expectedNow({ count: seg.rowCount, digest: seg.digest }, adjustments.get(h) ?? []);
    if (actual.digest !== expected.digest || actual.count !== expected.count) {
      const reason = expected.broken
        ? `rows changed before destruction ${expected.broken.recordId} ran`
        : actual.count > expected.count
          ? "rows added"
          : actual.count < expected.count
            ? "rows missing"
            : "rows changed";
      return bad(h, reason, expected.count, actual.count);
    }
    prev = seg.hash;
    expectStart = h + HOUR_MS;
  }
  return report;
}

/** Checks both chains end to end; the first segment that no longer matches is named, with why. */
export async function verifyChains(pool: pg.Pool): Promise<VerifyReport> {
  const t0 = performance.now();
  const client = await pool.connect();
  const helper = await pool.connect();
  try {
    // One snapshot for the whole check, shared by both connections: a destruction committing
    // midway cannot split it.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const snap = (await client.query<{ s: string }>("SELECT pg_export_snapshot() AS s")).rows[0]!.s;
    await helper.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    await helper.query(`SET TRANSACTION SNAPSHOT '${snap.replace(/'/g, "")}'`);
    const adjusted = { call_log: await loadAdjustments(client, "call_log"), audit_event: await loadAdjustments(client, "audit_event") };
    const streams: StreamReport[] = [];
    for (const stream of STREAM_NAMES) streams.push(await verifyStream([client, helper], stream, adjusted[stream].byHour));
    const key = sealKey();
    const stored = await signedHeads(client);
    const mine = stored.filter((h) => h.keyId === key.keyId);
    const headCheck = await checkHeads(client, mine, key.publicKeyPem);
    const heads = { checked: headCheck.checked, otherKeys: stored.length - mine.length, problem: headCheck.firstBad ? `signed head ${headCheck.firstBad.head.stream} through ${headCheck.firstBad.head.through}: ${headCheck.firstBad.reason}` : null };
    await helper.query("COMMIT");
    await client.query("COMMIT");
    for (const stream of STREAM_NAMES) {
      const forged = adjusted[stream].forged;
      if (!forged) continue;
      const cl = streams.find((s) => s.stream === stream)!;
      const start = new Date(forged.hour).toISOString();
      if (!cl.firstBad || Date.parse(cl.firstBad.start) >= forged.hour) {
        cl.firstBad = { stream, start, end: new Date(forged.hour + HOUR_MS).toISOString(), reason: `destruction record ${forged.id} does not match its sealed audit event`, sealedRows: 0, actualRows: 0 };
      }
    }
    const ms = performance.now() - t0;
    const rows = streams.reduce((n, s) => n + s.rows, 0);
    const firstBad = streams.map((s) => s.firstBad).filter((b): b is BadSegment => !!b).sort((a, b) => a.start.localeCompare(b.start))[0] ?? null;
    return { ok: !firstBad && !heads.problem, heads, rows, ms: Math.round(ms), rowsPerSecond: Math.round(rows / (ms / 1000)), streams, firstBad };
  } catch (e) {
    await helper.query("ROLLBACK").catch(() => {});
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    helper.release();
    client.release();
  }
}
