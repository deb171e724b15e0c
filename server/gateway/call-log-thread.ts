import path from "node:path";
import type { Worker } from "node:worker_threads";
import type { CallLogRow } from "./call-log.ts";
import type { CallLogWorkerData, CallLogWorkerReport, ToCallLogWorker } from "./call-log-worker.ts";
import { typeScriptWorker } from "./ts-worker.ts";

export interface CallLogThreadOptions {
  databaseUrl: string;
  spoolDir: string;
  /** How often queued rows go to the thread (a batch also goes once `maxBatch` rows wait). */
  flushMs?: number;
  maxBatch?: number;
  connectTimeoutMs?: number;
}

/**
 * The call log as the request loop sees it. push() only queues the row; every `flushMs` the queue
 * goes, as one message, to a worker thread that owns the CallLogWriter (COPY, spool, replay).
 * Writing a batch costs about 20 µs of CPU a row in node-postgres and the COPY stream; on the
 * request loop that was a 2 ms stall ten times a second, which every request arriving meanwhile
 * waited out — the largest part of the gateway's p99 over a bare proxy (bench/gateway.ts).
 *
 * Nothing is lost between the threads: a batch is kept here until the thread says it is stored or
 * spooled, and if the thread dies every batch it had not confirmed goes to the one started in its
 * place. A batch it stored but could not confirm is then written twice; the second COPY fails on
 * the call log's key, goes to the spool, and the replay skips rows already stored.
 */
export class CallLogThread {
  private queue: CallLogRow[] = [];
  private readonly unconfirmed = new Map<number, CallLogRow[]>();
  private readonly waiting: { seq: number; resolve: () => void }[] = [];
  private seq = 0;
  private confirmed = 0;
  private worker: Worker;
  private readonly timer: NodeJS.Timeout;
  private restart: NodeJS.Timeout | null = null;
  /** close() has begun: the thread (or its successor) keeps the process alive until all is written. */
  private stopping = false;
  /** The thread was asked to stop: it gets no successor. */
  private stopped = false;
  private readonly maxBatch: number;
  readonly spoolFile: string;
  /** Rows waiting in the spool file for the database to return (as the thread last said). */
  spooledRows = 0;
  /** Rows stored in the database so far (by every thread this one has run). */
  written = 0;
  private writtenByEarlierThreads = 0;

  constructor(private readonly opts: CallLogThreadOptions) {
    this.maxBatch = opts.maxBatch ?? 1000;
    this.spoolFile = path.join(opts.spoolDir, "call-log.spool.jsonl");
    this.worker = this.start();
    this.timer = setInterval(() => this.send(), opts.flushMs ?? 100);
    this.timer.unref();
  }

  private start(): Worker {
    const workerData: CallLogWorkerData = { databaseUrl: this.opts.databaseUrl, spoolDir: this.opts.spoolDir, connectTimeoutMs: this.opts.connectTimeoutMs ?? 1000 };
    const worker = typeScriptWorker(new URL("./call-log-worker.ts", import.meta.url), { workerData });
    worker.on("message", (r: CallLogWorkerReport) => this.confirm(r));
    worker.on("error", (e) => console.error(`[gateway] the call-log thread failed: ${e.message}`));
    worker.on("exit", () => {
      if (this.stopped) return;
      this.writtenByEarlierThreads = this.written;
      // Its unconfirmed batches wait here; the new thread gets them first, in order.
      this.restart = setTimeout(() => {
        this.restart = null;
        this.worker = this.start();
        for (const [seq, rows] of this.unconfirmed) this.post({ type: "rows", seq, rows });
      }, 1000);
      if (!this.stopping) this.restart.unref();
    });
    // While serving, the thread does not keep the process alive on its own; close() refs it, so a
    // stopping gateway waits for its rows.
    if (!this.stopping) worker.unref();
    return worker;
  }

  private post(m: ToCallLogWorker) {
    this.worker.postMessage(m);
  }

  private confirm(r: CallLogWorkerReport) {
    this.spooledRows = r.spooledRows;
    this.written = this.writtenByEarlierThreads + r.written;
    if (r.seq <= this.confirmed) return;
    for (const seq of this.unconfirmed.keys()) if (seq <= r.seq) this.unconfirmed.delete(seq);
    this.confirmed = r.seq;
    while (this.waiting.length && this.waiting[0]!.seq <= r.seq) this.waiting.shift()!.resolve();
  }

  /** Rows queued here, not yet handed to the thread. */
  get queued() {
    return this.queue.length;
  }

  push(row: CallLogRow) {
    if (this.queue.push(row) >= this.maxBatch) this.send();
  }

  /** Hands the queued rows to the thread; returns the sequence number that covers them. */
  private send(): number {
    if (!this.queue.length) return this.seq;
    const rows = this.queue;
    this.queue = [];
    const seq = ++this.seq;
    this.unconfirmed.set(seq, rows);
    this.post({ type: "rows", seq, rows });
    return seq;
  }

  /** Resolves once every row pushed so far is stored or spooled. */
  flush(): Promise<void> {
    const seq = this.send();
    if (seq <= this.confirmed) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ seq, resolve }));
  }

  /** Writes what is left, then stops the thread (its pool closed, its spool fsynced). */
  async close() {
    clearInterval(this.timer);
    this.stopping = true;
    this.worker.ref();
    this.restart?.ref();
    await this.flush();
    this.stopped = true;
    const exited = new Promise<void>((r) => this.worker.once("exit", () => r()));
    this.post({ type: "close" });
    await exited;
  }
}
