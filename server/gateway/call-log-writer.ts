import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { copyRows, insertDeduplicated, readRowFile, type CallLogRow } from "./call-log.ts";

/** The spool file in a gateway's spool directory. */
export const spoolFileIn = (spoolDir: string) => path.join(spoolDir, "call-log.spool.jsonl");

/**
 * Writes call-log rows in batches. When PostgreSQL is unreachable, a batch is appended to a local
 * spool file (fsynced) instead, and the spool is replayed once the database answers again —
 * also after a gateway restart, since the spool is read on start. The replay skips rows already
 * stored, so a batch that reached the database and the spool both is still counted once.
 *
 * A spool the disk refuses (full, failing) does not stop the writer: the rows are held in memory,
 * `spoolFailing` raises the alarm, and every flush tries the database, then the spool, again.
 * `held` says how many rows are in memory only; nothing counts as safe while any are.
 */
export class CallLogWriter {
  private queue: CallLogRow[] = [];
  /** Rows neither stored nor spooled (the database away and the spool's disk refusing). */
  private unspooled: CallLogRow[] = [];
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private readonly spoolFile: string;
  /** Rows waiting in the spool file for the database to return. */
  spooledRows = 0;
  written = 0;
  spoolFailing = false;
  private dbDown = false;

  constructor(
    private readonly pool: pg.Pool,
    spoolDir: string,
    private readonly opts = { flushMs: 100, maxBatch: 1000 },
  ) {
    fs.mkdirSync(spoolDir, { recursive: true });
    this.spoolFile = spoolFileIn(spoolDir);
    this.spooledRows = readRowFile(this.spoolFile).length;
    // A tick that finds a flush under way leaves its rows to the next tick.
    this.timer = setInterval(() => void (this.flushing ? null : this.flush()), opts.flushMs);
    this.timer.unref();
  }

  get queued() {
    return this.queue.length;
  }

  /** Rows held in memory only, waiting for the database or a disk that takes writes. */
  get held() {
    return this.unspooled.length;
  }

  push(row: CallLogRow) {
    // A full batch is written at once (once per batch: the flush takes everything queued by then).
    if (this.queue.push(row) === this.opts.maxBatch) void this.flush();
  }

  /** Rows that may be stored already (a dead process's journal): spooled, so the replay skips those that are. */
  recover(rows: CallLogRow[]) {
    if (rows.length) this.spool(rows);
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
    if (this.unspooled.length) await this.retryUnspooled();
    if (this.spooledRows > 0) await this.replaySpool();
    const rows = this.queue;
    this.queue = [];
    for (let i = 0; i < rows.length; i += this.opts.maxBatch) {
      const batch = rows.slice(i, i + this.opts.maxBatch);
      if (this.dbDown || this.spooledRows > 0 || this.unspooled.length) {
        this.spool(batch); // keep order: nothing overtakes rows already waiting
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

  /** Rows the spool refused: to the database if it is back (skipping any stored already), else to the spool again. */
  private async retryUnspooled() {
    const rows = this.unspooled;
    this.unspooled = [];
    try {
      for (let i = 0; i < rows.length; i += this.opts.maxBatch) await insertDeduplicated(this.pool, rows.slice(i, i + this.opts.maxBatch));
      this.written += rows.length;
      if (this.spooledRows === 0) this.dbDown = false;
    } catch {
      this.dbDown = true;
      this.spool(rows);
    }
  }

  private spool(rows: CallLogRow[]) {
    if (this.unspooled.length) return void this.unspooled.push(...rows); // keep order behind rows already refused
    try {
      const fd = fs.openSync(this.spoolFile, "a");
      try {
        // Led by a newline: a line torn by an earlier refused write ends there, and is skipped alone.
        fs.writeSync(fd, "\n" + rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      this.spooledRows += rows.length;
      this.spoolFailing = false;
    } catch (e) {
      if (!this.spoolFailing) console.error(`[gateway] the call-log spool ${this.spoolFile} refused a write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}) while the database is away: rows are held in memory until either takes them.`);
      this.spoolFailing = true;
      this.unspooled.push(...rows);
    }
  }

  /** Sends the spool to the database; the file goes only after every row in it is stored. */
  private async replaySpool() {
    const rows = readRowFile(this.spoolFile);
    try {
      for (let i = 0; i < rows.length; i += this.opts.maxBatch) await insertDeduplicated(this.pool, rows.slice(i, i + this.opts.maxBatch));
      fs.rmSync(this.spoolFile, { force: true });
      this.written += rows.length;
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
