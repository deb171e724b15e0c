import { createHash } from "node:crypto";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { copyOut } from "./copy-out.ts";

/** The two file formats Kule's exports are written in: RFC 4180 CSV, or one JSON object per line. */
export type ExportFormat = "csv" | "jsonl";

/** The HTTP content type of each format's file. */
export const EXPORT_CONTENT_TYPE: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8" };

export interface ExportResult {
  rows: number;
  bytes: number;
  sha256: string;
}

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
 * of exactly the bytes written. `onRows` reports progress as rows pass.
 */
export async function streamCopyFile(pool: pg.Pool, sql: string, format: ExportFormat, sink: Writable, onRows?: (rows: number) => void): Promise<ExportResult> {
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
    const copy = copyOut(client, sql);
    await pipeline(copy.stream, shape, sink);
    const rows = await copy.rowCount();
    onRows?.(rows);
    return { rows, bytes, sha256: hash.digest("hex") };
  } finally {
    client.release();
  }
}
