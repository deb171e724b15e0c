import { createHash } from "node:crypto";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { copyOut } from "./copy-out.ts";
import { TimeoutError, TooLargeError } from "../errors.ts";

/** The two file formats Kule's exports are written in: RFC 4180 CSV, or one JSON object per line. */
export type ExportFormat = "csv" | "jsonl";

/** The HTTP content type of each format's file. */
export const EXPORT_CONTENT_TYPE: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8" };

export interface ExportResult {
  rows: number;
  bytes: number;
  sha256: string;
}

/**
 * How far one export file may go, whichever export writes it: rows (a 20-million-row CSV is
 * some 2.6 GB) and time (a slow query or a client that stops reading holds a database connection
 * for no longer than this). Narrower filters make smaller files.
 */
export const EXPORT_LIMITS = { maxRows: 20_000_000, timeoutMs: 30 * 60_000 };
export type ExportLimits = typeof EXPORT_LIMITS;

/** An export stopped at its row limit: the sentence says how to get under it. */
export const tooManyRows = (maxRows: number) => new TooLargeError(`More than ${maxRows.toLocaleString("en")} rows match, the most one export file holds: narrow the time range or the filter.`);

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const LF = 0x0a;

/**
 * The COPY of a SELECT into a file's body. PostgreSQL writes the CSV itself (quoting per RFC 4180,
 * a header line of the select's column names); for JSONL the select yields one JSON text per row,
 * copied in CSV mode with quote and delimiter bytes that JSON never contains, so it passes unescaped.
 */
export function copyFileSql(select: string, format: ExportFormat): string {
  return format === "csv" ? `COPY (${select}) TO STDOUT WITH (FORMAT csv, HEADER true)` : `COPY (${select}) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;
}

/**
 * Streams a COPY … TO STDOUT (copyFileSql) into `sink` with back-pressure, so memory stays flat
 * whatever the size: CSV gets a UTF-8 BOM and CRLF line ends (RFC 4180), and the SHA-256 is taken
 * of exactly the bytes written. `onRows` reports progress as rows pass. Past `limits` the copy
 * stops with a TooLargeError or a TimeoutError.
 */
export async function streamCopyFile(pool: pg.Pool, sql: string, format: ExportFormat, sink: Writable, opts: { onRows?: (rows: number) => void; limits?: Partial<ExportLimits> } = {}): Promise<ExportResult> {
  const { onRows } = opts;
  const { maxRows, timeoutMs } = { ...EXPORT_LIMITS, ...opts.limits };
  const client = await pool.connect();
  const hash = createHash("sha256");
  let bytes = 0;
  let lines = 0;
  let lastReport = 0;
  const emit = (t: Transform, b: Buffer) => {
    hash.update(b);
    bytes += b.length;
    t.push(b);
  };
  const shape = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let n = 0;
      for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) n++;
      lines += n;
      if ((format === "csv" ? lines - 1 : lines) > maxRows) return done(tooManyRows(maxRows));
      if (format === "csv") {
        // LF → CRLF: PostgreSQL ends CSV lines with LF; RFC 4180 asks for CRLF.
        const out = Buffer.allocUnsafe(chunk.length + n);
        let o = 0;
        let from = 0;
        for (let i = chunk.indexOf(LF); i >= 0; i = chunk.indexOf(LF, i + 1)) {
          o += chunk.copy(out, o, from, i);
          out[o++] = 0x0d;
          out[o++] = LF;
          from = i + 1;
        }
        o += chunk.copy(out, o, from);
        emit(this, out.subarray(0, o));
      } else emit(this, chunk);
      if (onRows && lines - lastReport >= 50_000) {
        lastReport = lines;
        onRows(format === "csv" ? lines - 1 : lines);
      }
      done();
    },
  });
  // Two clocks on one limit: the server's stops a query still working; ours also stops a sink that
  // no longer drains (the server does not cancel while it waits to write to us).
  const deadline = AbortSignal.timeout(timeoutMs);
  let broken: unknown;
  try {
    await client.query(`SET statement_timeout = ${Math.ceil(timeoutMs)}`);
    if (format === "csv") emit(shape, BOM);
    const copy = copyOut(client, sql);
    await pipeline(copy.stream, shape, sink, { signal: deadline });
    const rows = await copy.rowCount();
    await client.query("RESET statement_timeout");
    onRows?.(rows);
    return { rows, bytes, sha256: hash.digest("hex") };
  } catch (e) {
    broken = e;
    if (deadline.aborted || (e as { code?: string }).code === "57014") throw new TimeoutError(`The export reached its time limit (${Math.ceil(timeoutMs / 60_000)} min) and was stopped: narrow the time range or the filter.`);
    throw e;
  } finally {
    // A connection left inside a COPY is closed, not handed to the next query.
    client.release(broken !== undefined);
  }
}
