import fs from "node:fs";
import path from "node:path";
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
  clientIp: string | null;
  startedAt: number;
  endedAt: number;
  ttftMs: number | null;
  status: number;
  errorClass: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Keyed hash of the request's `user` field (server/call-log/subject-hash.ts); absent in spools written before it existed. */
  userHash?: string | null;
}

const COLUMNS = ["requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "replica", "region", "clientIp", "startedAt", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens", "userHash"] as const;

/** COPY text format: tabs, newlines and backslashes escaped, \N for null. */
function copyField(v: string | number | null): string {
  if (v === null) return "\\N";
  return typeof v === "number" ? String(v) : v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/** A row's values in COLUMNS order, times as ISO text. */
function rowValues(r: CallLogRow): (string | number | null)[] {
  return [r.requestId, r.tenantId, r.apiKeyId, r.endpointId, r.endpointVersionId, r.replica, r.region, r.clientIp, new Date(r.startedAt).toISOString(), new Date(r.endedAt).toISOString(), r.ttftMs, r.status, r.errorClass, r.promptTokens, r.completionTokens, r.userHash ?? null];
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

/**
 * Writes call-log rows in batches. When PostgreSQL is unreachable, a batch is appended to a local
 * spool file (fsynced) instead, and the spool is replayed once the database answers again —
 * also after a gateway restart, since the spool is read on start. The replay skips rows already
 * stored, so a batch that reached the database and the spool both is still counted once.
 */
export class CallLogWriter {
  private queue: CallLogRow[] = [];
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private readonly spoolFile: string;
  /** Rows waiting in the spool file for the database to return. */
  spooledRows = 0;
  written = 0;
  private dbDown = false;

  constructor(
    private readonly pool: pg.Pool,
    spoolDir: string,
    private readonly opts = { flushMs: 100, maxBatch: 1000 },
  ) {
    fs.mkdirSync(spoolDir, { recursive: true });
    this.spoolFile = path.join(spoolDir, "call-log.spool.jsonl");
    if (fs.existsSync(this.spoolFile)) this.spooledRows = fs.readFileSync(this.spoolFile, "utf8").split("\n").filter(Boolean).length;
    // A tick that finds a flush under way leaves its rows to the next tick.
    this.timer = setInterval(() => void (this.flushing ? null : this.flush()), opts.flushMs);
    this.timer.unref();
  }

  get queued() {
    return this.queue.length;
  }

  push(row: CallLogRow) {
    // A full batch is written at once (once per batch: the flush takes everything queued by then).
    if (this.queue.push(row) === this.opts.maxBatch) void this.flush();
  }

  /** Writes every row queued so far (after any flush already under way). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.doFlush().finally(() => (this.flushing = null));
    await this.flushing;
  }

  /**
   * Writes the rows queued when it starts, in batches of at most `maxBatch`. Rows that arrive
   * meanwhile wait for the next flush: chasing them turned a 100 ms cadence into a stream of tiny
   * COPYs (about 80 a second at 1,000 req/s, each with its round trips and trigger run).
   */
  private async doFlush() {
    if (this.spooledRows > 0) await this.replaySpool();
    const rows = this.queue;
    this.queue = [];
    for (let i = 0; i < rows.length; i += this.opts.maxBatch) {
      const batch = rows.slice(i, i + this.opts.maxBatch);
      if (this.dbDown || this.spooledRows > 0) {
        this.spool(batch); // keep order: nothing overtakes rows already waiting in the spool
        continue;
      }
      try {
        await copyRows(this.pool, batch);
        this.written += batch.length;
      } catch {
        this.dbDown = true;
        this.spool(batch);
      }
    }
  }

  private spool(rows: CallLogRow[]) {
    const fd = fs.openSync(this.spoolFile, "a");
    try {
      fs.writeSync(fd, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.spooledRows += rows.length;
  }

  /** Sends the spool to the database; the file goes only after every row in it is stored. */
  private async replaySpool() {
    const lines = fs.readFileSync(this.spoolFile, "utf8").split("\n").filter(Boolean);
    try {
      for (let i = 0; i < lines.length; i += this.opts.maxBatch) {
        await insertDeduplicated(this.pool, lines.slice(i, i + this.opts.maxBatch).map((l) => JSON.parse(l) as CallLogRow));
      }
      fs.rmSync(this.spoolFile);
      this.written += lines.length;
      this.spooledRows = 0;
      this.dbDown = false;
    } catch {
      this.dbDown = true;
    }
  }

  async close() {
    clearInterval(this.timer);
    await this.flush();
  }
}
