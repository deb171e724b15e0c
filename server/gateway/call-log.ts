import fs from "node:fs";
import type pg from "pg";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { from as copyFrom } from "pg-copy-streams";

/** One call-log row: who called what, when, where it was served, and the tokens it used. Never the prompt or the answer. */
export interface CallLogRow {
  requestId: string;
  tenantId: string;
  apiKeyId: string | null;
  endpointId: string | null;
  endpointVersionId: string | null;
  replica: string | null;
  region: string | null;
  /** Only in rows of spools written before IPs were encrypted: new rows carry clientIpEnc and clientIpHash. */
  clientIp: string | null;
  clientIpEnc?: string | null;
  clientIpHash?: string | null;
  ipKeyVersion?: string | null;
  startedAt: number;
  endedAt: number;
  ttftMs: number | null;
  status: number;
  errorClass: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Keyed hash of the request's `user` field (server/call-log/subject-hash.ts); absent in spools written before it existed. */
  userHash?: string | null;
  userHashKeyVersion?: string | null;
  /** The call's OpenTelemetry trace id, when tracing is on; absent in older spools. */
  traceId?: string | null;
  /** Routing (absent in older spools): why this replica, the request class, the endpoints that failed first. */
  routeReason?: string | null;
  requestClass?: string | null;
  fallbackChain?: string | null;
  /** Regions also sent to (a retried attempt, a shadow copy), comma-joined; absent in older spools. */
  otherRegions?: string | null;
}

const COLUMNS = ["requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "replica", "region", "clientIp", "startedAt", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens", "userHash", "traceId", "routeReason", "requestClass", "fallbackChain", "clientIpEnc", "clientIpHash", "ipKeyVersion", "userHashKeyVersion", "otherRegions"] as const;

/** COPY text format: tabs, newlines and backslashes escaped, \N for null. */
function copyField(v: string | number | null): string {
  if (v === null) return "\\N";
  return typeof v === "number" ? String(v) : v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/** A row's values in COLUMNS order, times as ISO text. */
function rowValues(r: CallLogRow): (string | number | null)[] {
  return [r.requestId, r.tenantId, r.apiKeyId, r.endpointId, r.endpointVersionId, r.replica, r.region, r.clientIp, new Date(r.startedAt).toISOString(), new Date(r.endedAt).toISOString(), r.ttftMs, r.status, r.errorClass, r.promptTokens, r.completionTokens, r.userHash ?? null, r.traceId ?? null, r.routeReason ?? null, r.requestClass ?? null, r.fallbackChain ?? null, r.clientIpEnc ?? null, r.clientIpHash ?? null, r.ipKeyVersion ?? null, r.userHashKeyVersion ?? null, r.otherRegions ?? null];
}

function copyLine(r: CallLogRow): string {
  return rowValues(r).map(copyField).join("\t") + "\n";
}

const COLUMN_LIST = COLUMNS.map((c) => `"${c}"`).join(",");

/**
 * A live batch is COPied straight into the call log: one statement, routed to its monthly
 * partition by PostgreSQL, nothing else for the database to do. Its request ids are fresh, so it
 * cannot collide; if it fails anyway, it goes to the spool, whose replay skips what is already
 * stored (`insertDeduplicated`).
 */
export async function copyRows(pool: pg.Pool, rows: CallLogRow[]): Promise<void> {
  if (!rows.length) return;
  const client = await pool.connect();
  // A connection that drops mid-COPY reports it as an event too: the failed COPY says enough.
  const ignore = () => {};
  client.on("error", ignore);
  try {
    await pipeline(Readable.from([rows.map(copyLine).join("")]), client.query(copyFrom(`COPY "CallLog" (${COLUMN_LIST}) FROM STDIN`)));
    client.off("error", ignore);
    client.release();
  } catch (e) {
    client.off("error", ignore);
    client.release(true);
    throw e;
  }
}

/** The rows of a journal or spool file (one JSON row a line); a torn line (a write cut short by a full disk or a power cut) is skipped, a missing file is empty. */
export function readRowFile(file: string): CallLogRow[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const rows: CallLogRow[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      rows.push(JSON.parse(line) as CallLogRow);
    } catch {
      // torn: its row is held in memory (a full disk) or went down with the machine mid-write
    }
  }
  return rows;
}

const INT_COLUMNS = new Set<string>(["ttftMs", "status", "promptTokens", "completionTokens"]);
const TIME_COLUMNS = new Set<string>(["startedAt", "endedAt"]);
/** Columns as arrays for unnest(), typed as the table's columns. */
const UNNEST = COLUMNS.map((c, i) => `$${i + 1}::${TIME_COLUMNS.has(c) ? "timestamp" : INT_COLUMNS.has(c) ? "int" : "text"}[]`).join(", ");

/**
 * Rows that may be stored already (a spool written while a batch's fate was unknown): one INSERT
 * from arrays, ON CONFLICT DO NOTHING on the call log's key (request id, start time), so a replay
 * never counts a call twice.
 */
export async function insertDeduplicated(pool: pg.Pool, rows: CallLogRow[]): Promise<void> {
  if (!rows.length) return;
  const cols: unknown[][] = COLUMNS.map(() => []);
  for (const r of rows) rowValues(r).forEach((v, i) => cols[i]!.push(v));
  await pool.query(`INSERT INTO "CallLog" (${COLUMN_LIST}) SELECT * FROM unnest(${UNNEST}) ON CONFLICT ("requestId", "startedAt") DO NOTHING`, cols);
}
