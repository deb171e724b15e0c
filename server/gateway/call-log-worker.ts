/**
 * The call log's own thread (started by CallLogThread): it owns the CallLogWriter, its database
 * pool and its spool, so reading journal segments, formatting rows and talking COPY to PostgreSQL
 * never hold up the gateway's request loop. Each batch is acknowledged once it is stored or
 * spooled — never while any row is held in memory only.
 */
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { readRowFile, type CallLogRow } from "./call-log.ts";
import { CallLogWriter } from "./call-log-writer.ts";

export interface CallLogWorkerData {
  databaseUrl: string;
  spoolDir: string;
  connectTimeoutMs: number;
}
/**
 * From the gateway: a journal segment to write (its file, and rows the journal's disk refused),
 * leftover segments of a dead process to recover, or a request to finish up and stop.
 */
export type ToCallLogWorker = { type: "rows"; seq: number; file: string | null; rows: CallLogRow[] } | { type: "recover"; seq: number; files: string[] } | { type: "close" };
/** To the gateway: batches up to `seq` are durable, and the writer's counters now. */
export interface CallLogWorkerReport {
  seq: number;
  spooledRows: number;
  heldRows: number;
  spoolFailing: boolean;
  written: number;
}

const data = workerData as CallLogWorkerData;
const port = parentPort!;
// A short connect timeout: while the database is away, batches go to the spool at once.
const pool = new pg.Pool({ connectionString: data.databaseUrl, max: 2, connectionTimeoutMillis: data.connectTimeoutMs });
pool.on("error", () => {});
const writer = new CallLogWriter(pool, data.spoolDir);
/** The highest batch flushed (stored, spooled or held), and the highest acknowledged as durable. */
let flushed = 0;
let durable = 0;
let last = "";

/** Tells the gateway how far it got, when there is news (the first report always is). */
function report() {
  if (writer.held === 0) durable = Math.max(durable, flushed);
  const r: CallLogWorkerReport = { seq: durable, spooledRows: writer.spooledRows, heldRows: writer.held, spoolFailing: writer.spoolFailing, written: writer.written };
  const key = JSON.stringify(r);
  if (key === last) return;
  last = key;
  port.postMessage(r);
}

// The writer's own timer keeps retrying while the database is away; this one tells the gateway
// when a replay emptied the spool, or rows held in memory found a home.
const ticker = setInterval(() => report(), 500);

port.on("message", (m: ToCallLogWorker) => {
  if (m.type === "close") {
    clearInterval(ticker);
    void writer
      .close()
      .then(() => pool.end())
      .finally(() => {
        report();
        port.close();
      });
    return;
  }
  if (m.type === "recover") writer.recover(m.files.flatMap(readRowFile));
  else for (const row of [...(m.file ? readRowFile(m.file) : []), ...m.rows]) writer.push(row);
  // flush() calls run one after another in the order they are made, so acknowledgements rise.
  void writer.flush().then(() => {
    flushed = Math.max(flushed, m.seq);
    report();
  });
});
report();
