import fs from "node:fs";
import path from "node:path";
import type { CallLogRow } from "./call-log.ts";

/** One cut of the journal: the file its rows were appended to, and the rows the disk refused (kept in memory). */
export interface JournalSegment {
  file: string | null;
  held: CallLogRow[];
  rows: number;
}

/**
 * The gateway's call-log journal: every row is appended to a local file (one write(2) on the
 * request loop, before the answer's last bytes go out), so a gateway killed with SIGKILL has
 * handed every answered call's row to the operating system. The journal is cut into a segment each
 * time rows go to the call-log thread; a segment is deleted once the thread says its rows are
 * stored (or spooled), and segments a dead process left behind are replayed on start without
 * counting a row twice (call-log.ts, insertDeduplicated).
 *
 * Segments are fdatasync'd as they are cut, off the request loop (libuv's thread pool), so a
 * machine that loses power loses at most the rows of the segment being written: one flush interval.
 *
 * A write the disk refuses (ENOSPC, EIO) does not fail the call: the row is held in memory, the
 * segment is closed (a torn last line is skipped on replay), `failing` raises the alarm, and the
 * next cut tries a new file.
 */
export class CallJournal {
  private fd: number | null = null;
  private file: string | null = null;
  private held: CallLogRow[] = [];
  private rows = 0;
  private n = 0;
  private readonly boot = `${Date.now().toString(36)}-${process.pid}`;
  /** The disk refused the last write: rows are held in memory until a new segment takes writes. */
  failing = false;
  /** While failing, a new file is tried once per cut, not once per row. */
  private retry = true;
  /** Writes the disk refused since start. */
  writeErrors = 0;
  /** Segments left by earlier processes, found at start (before this one wrote anything). */
  readonly leftovers: string[];

  constructor(
    private readonly dir: string,
    private readonly open: (file: string) => number = (file) => fs.openSync(file, "a"),
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.leftovers = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => path.join(dir, f));
  }

  append(row: CallLogRow) {
    this.rows++;
    if (this.fd === null && this.retry) this.openSegment();
    if (this.fd === null) return void this.held.push(row);
    const line = JSON.stringify(row) + "\n";
    try {
      if (fs.writeSync(this.fd, line) !== Buffer.byteLength(line)) throw Object.assign(new Error("short write"), { code: "ENOSPC" });
      this.failing = false;
    } catch (e) {
      this.refused(e);
      this.held.push(row);
      this.closeSegment(false);
    }
  }

  /** Closes the segment being written and returns it (null when no row arrived since the last cut). */
  cut(): JournalSegment | null {
    if (this.rows === 0) return null;
    const segment = { file: this.file, held: this.held, rows: this.rows };
    this.closeSegment(true);
    this.held = [];
    this.rows = 0;
    this.retry = true;
    return segment;
  }

  /** A segment's rows are stored: its file goes. */
  discard(segment: { file: string | null }) {
    if (segment.file) fs.rm(segment.file, { force: true }, () => {});
  }

  /** Removes leftover segments once their rows are safe elsewhere. */
  discardLeftovers(files: string[]) {
    for (const f of files) fs.rmSync(f, { force: true });
  }

  private openSegment() {
    this.retry = false;
    const file = path.join(this.dir, `${this.boot}-${String(++this.n).padStart(9, "0")}.jsonl`);
    try {
      this.fd = this.open(file);
      this.file = file;
    } catch (e) {
      this.refused(e);
    }
  }

  private closeSegment(sync: boolean) {
    const fd = this.fd;
    this.fd = null;
    this.file = null;
    if (fd === null) return;
    if (sync) fs.fdatasync(fd, () => fs.close(fd, () => {}));
    else fs.close(fd, () => {});
  }

  private refused(e: unknown) {
    this.writeErrors++;
    if (!this.failing) console.error(`[gateway] the call-log journal in ${this.dir} refused a write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): rows are held in memory until the disk takes writes again.`);
    this.failing = true;
  }
}
