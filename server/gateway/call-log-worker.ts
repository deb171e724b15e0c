/**
 * The call log's own thread (started by CallLogThread): it owns the CallLogWriter, its database
 * pool and its spool, so formatting rows and talking COPY to PostgreSQL never hold up the
 * gateway's request loop. Each batch is acknowledged once it is stored or spooled.
 */
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { CallLogWriter, type CallLogRow } from "./call-log.ts";

export interface CallLogWorkerData {
  databaseUrl: string;
  spoolDir: string;
  connectTimeoutMs: number;
}
/** From the gateway: a batch to write, or a request to finish up and stop. */
export type ToCallLogWorker = { type: "rows"; seq: number; rows: CallLogRow[] } | { type: "close" };
/** To the gateway: batches up to `seq` are durable, and the writer's counters now. */
export interface CallLogWorkerReport {
  seq: number;
  spooledRows: number;
  written: number;
}

const data = workerData as CallLogWorkerData;
const port = parentPort!;
// A short connect timeout: while the database is away, batches go to the spool at once.
const pool = new pg.Pool({ connectionString: data.databaseUrl, max: 2, connectionTimeoutMillis: data.connectTimeoutMs });
pool.on("error", () => {});
const writer = new CallLogWriter(pool, data.spoolDir);
let durable = 0;
let last = "";

/** Tells the gateway how far it got, when there is news (the first report always is). */
function report() {
  const r: CallLogWorkerReport = { seq: durable, spooledRows: writer.spooledRows, written: writer.written };
  const key = `${r.seq}/${r.spooledRows}/${r.written}`;
  if (key === last) return;
  last = key;
  port.postMessage(r);
}

// The writer's own timer keeps retrying the spool while the database is away; this one tells the
// gateway when such a replay emptied it.
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
  for (const row of m.rows) writer.push(row);
  // flush() calls run one after another in the order they are made, so acknowledgements rise.
  void writer.flush().then(
    () => {
      durable = Math.max(durable, m.seq);
      report();
    },
    (e: Error) => {
      // Neither stored nor spooled (the spool's disk failed): the gateway still holds the batch and
      // sends it again to the thread it starts in this one's place.
      console.error(`[gateway] the call log could not store or spool a batch: ${e.message}`);
      process.exit(1);
    },
  );
});
report();
