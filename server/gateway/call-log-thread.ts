import path from "node:path";
import type { Worker } from "node:worker_threads";
import type { CallLogRow } from "./call-log.ts";
import { CallJournal, type JournalSegment } from "./call-journal.ts";
import { spoolFileIn } from "./call-log-writer.ts";
import type { CallLogWorkerData, CallLogWorkerReport, ToCallLogWorker } from "./call-log-worker.ts";
import { typeScriptWorker } from "./ts-worker.ts";

export interface CallLogThreadOptions {
  databaseUrl: string;
  spoolDir: string;
  /** How often the journal is cut and its rows go to the thread (a cut also happens once `maxBatch` rows wait). */
  flushMs?: number;
  maxBatch?: number;
  connectTimeoutMs?: number;
  /** Opens a journal segment for appending (a test gives it a full disk). */
  openJournalFile?: (file: string) => number;
}

/** How often one gateway process cuts its journal and sends the rows to PostgreSQL, by default. */
export const CALL_LOG_FLUSH_MS = 100;

/** What the thread was sent and has not yet said is safe: a journal segment, or leftover files to recover. */
type Unconfirmed = { segment: JournalSegment } | { leftovers: string[] };

/**
 * The call log as the request loop sees it. push() appends the row to the journal (call-journal.ts:
 * one write(2), so SIGKILL loses nothing answered); every `flushMs` the journal is cut and the
 * segment's name goes to a worker thread that owns the CallLogWriter (reading the segment, COPY,
 * spool, replay). Writing a batch costs about 20 µs of CPU a row in node-postgres and the COPY
 * stream; on the request loop that was a 2 ms stall ten times a second, which every request
 * arriving meanwhile waited out — the largest part of the gateway's p99 over a bare proxy.
 *
 * A segment is deleted when the thread says its rows are stored or spooled. If the thread dies,
 * every segment it had not confirmed goes to the one started in its place; if the process dies,
 * its successor (same spool directory) finds the segments on start and replays them through the
 * spool, which skips rows already stored: 0 lost, 0 doubled.
 */
export class CallLogThread {
  private readonly journal: CallJournal;
  private readonly unconfirmed = new Map<number, Unconfirmed>();
  private readonly waiting: { seq: number; resolve: () => void }[] = [];
  private seq = 0;
  private confirmed = 0;
  private pendingRows = 0;
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
  /** Rows the thread holds in memory only: the database away and the spool's disk refusing. */
  threadHeldRows = 0;
  spoolFailing = false;
  /** Rows stored in the database so far (by every thread this one has run). */
  written = 0;
  private writtenByEarlierThreads = 0;

  constructor(private readonly opts: CallLogThreadOptions) {
    this.maxBatch = opts.maxBatch ?? 1000;
    this.spoolFile = spoolFileIn(opts.spoolDir);
    this.journal = new CallJournal(path.join(opts.spoolDir, "journal"), opts.openJournalFile);
    this.worker = this.start();
    if (this.journal.leftovers.length) this.send({ leftovers: this.journal.leftovers });
    this.timer = setInterval(() => this.cut(), opts.flushMs ?? CALL_LOG_FLUSH_MS);
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
      this.restart = setTimeout(() => this.revive(), 1000);
      if (!this.stopping) this.restart.unref();
    });
    // While serving, the thread does not keep the process alive on its own; close() refs it, so a
    // stopping gateway waits for its rows.
    if (!this.stopping) worker.unref();
    return worker;
  }

  /** A thread in a dead one's place: its unconfirmed batches wait here, and the new thread gets them first, in order. */
  private revive() {
    if (this.restart) clearTimeout(this.restart);
    this.restart = null;
    this.worker = this.start();
    for (const [seq, u] of this.unconfirmed) this.post(seq, u);
  }

  private post(seq: number, u: Unconfirmed) {
    const m: ToCallLogWorker = "segment" in u ? { type: "rows", seq, file: u.segment.file, rows: u.segment.held } : { type: "recover", seq, files: u.leftovers };
    this.worker.postMessage(m);
  }

  private send(u: Unconfirmed): number {
    const seq = ++this.seq;
    this.unconfirmed.set(seq, u);
    this.post(seq, u);
    return seq;
  }

  private confirm(r: CallLogWorkerReport) {
    this.spooledRows = r.spooledRows;
    this.threadHeldRows = r.heldRows;
    this.spoolFailing = r.spoolFailing;
    this.written = this.writtenByEarlierThreads + r.written;
    if (r.seq <= this.confirmed) return;
    for (const [seq, u] of this.unconfirmed) {
      if (seq > r.seq) continue;
      this.unconfirmed.delete(seq);
      if ("segment" in u) this.journal.discard(u.segment);
      else this.journal.discardLeftovers(u.leftovers);
    }
    this.confirmed = r.seq;
    while (this.waiting.length && this.waiting[0]!.seq <= r.seq) this.waiting.shift()!.resolve();
  }

  /** Rows appended since the last cut, not yet handed to the thread. */
  get queued() {
    return this.pendingRows;
  }

  /** The journal's disk refused a write: the alarm the gateway's metrics carry. */
  get journalFailing() {
    return this.journal.failing;
  }

  get journalWriteErrors() {
    return this.journal.writeErrors;
  }

  /** Rows in this process's memory only (the journal's disk refused them), not yet confirmed by the thread. */
  get heldRows() {
    let n = 0;
    for (const u of this.unconfirmed.values()) if ("segment" in u) n += u.segment.held.length;
    return n + this.threadHeldRows;
  }

  /** Hands a call's row to the operating system (the journal) before its answer completes. */
  push(row: CallLogRow) {
    this.journal.append(row);
    if (++this.pendingRows >= this.maxBatch) this.cut();
  }

  /** Cuts the journal and hands the segment to the thread; returns the sequence number that covers every row so far. */
  private cut(): number {
    const segment = this.journal.cut();
    this.pendingRows = 0;
    return segment ? this.send({ segment }) : this.seq;
  }

  /** Resolves once every row pushed so far is stored or spooled. */
  flush(): Promise<void> {
    const seq = this.cut();
    if (seq <= this.confirmed) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ seq, resolve }));
  }

  /** Writes what is left, then stops the thread (its pool closed, its spool fsynced). */
  async close() {
    clearInterval(this.timer);
    this.stopping = true;
    // A thread that just died is replaced now: what it spooled is replayed by the one that closes.
    if (this.restart) this.revive();
    this.worker.ref();
    await this.flush();
    this.stopped = true;
    const exited = new Promise<void>((r) => this.worker.once("exit", () => r()));
    this.worker.postMessage({ type: "close" } satisfies ToCallLogWorker);
    await exited;
  }
}
