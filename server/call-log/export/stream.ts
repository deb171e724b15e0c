import { createHash } from "node:crypto";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { copyOut } from "../../db/copy-out.ts";
import type { CallLogFilter } from "../schemas.ts";
import { whereSql } from "../where.ts";
import type { Locale } from "../../shared/i18n/locales.ts";
import { csvSelect, JSON_SELECT } from "./columns.ts";

export type ExportFormat = "csv" | "jsonl";

export interface ExportResult {
  rows: number;
  bytes: number;
  sha256: string;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const LF = 0x0a;

/**
 * The COPY that produces the file's body. PostgreSQL writes the CSV itself (quoting per RFC 4180);
 * JSONL goes through CSV mode with quote and delimiter bytes that JSON never contains, so the
 * JSON text passes unescaped. Rows come in the seal's order (time, then request id byte-wise), read
 * along the time indexes: an outsider rebuilds each sealed hour's digest one hour at a time.
 */
function copySql(filter: CallLogFilter, format: ExportFormat, locale: Locale): string {
  const where = whereSql(filter);
  const order = `ORDER BY c."startedAt", c."requestId" COLLATE "C"`;
  return format === "csv"
    ? `COPY (SELECT ${csvSelect(locale)} FROM "CallLog" c WHERE ${where} ${order}) TO STDOUT WITH (FORMAT csv, HEADER true)`
    : `COPY (SELECT ${JSON_SELECT} FROM "CallLog" c WHERE ${where} ${order}) TO STDOUT WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;
}

/**
 * Streams the rows of a filter from COPY … TO STDOUT into `sink` with back-pressure, so memory
 * stays flat whatever the size: CSV gets a UTF-8 BOM and CRLF line ends (RFC 4180), and the
 * SHA-256 is taken of exactly the bytes written. `onRows` reports progress as rows pass.
 */
export async function streamExport(pool: pg.Pool, filter: CallLogFilter, format: ExportFormat, sink: Writable, opts: { onRows?: (rows: number) => void; locale?: Locale } = {}): Promise<ExportResult> {
  const { onRows, locale = "en" } = opts;
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
  try {
    if (format === "csv") emit(shape, BOM);
    const copy = copyOut(client, copySql(filter, format, locale));
    await pipeline(copy.stream, shape, sink);
    const rows = await copy.rowCount();
    onRows?.(rows);
    return { rows, bytes, sha256: hash.digest("hex") };
  } finally {
    client.release();
  }
}
