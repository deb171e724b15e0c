/**
 * A gateway process for benchmarks: prints {"url"} once listening. With BENCH_LOOP_REPORT=1 it
 * also watches its own event loop (bench/profile-gateway.ts): every stall over 5 ms, and whether a
 * garbage collection overlapped it, reported as one JSON line on stderr at SIGTERM. BENCH_OVERLOAD=fifo
 * turns its overload queue off (bench/overload.ts's baseline).
 */
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { PerformanceObserver, monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { Gateway } from "../server/gateway/server.ts";

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
const gateway = new Gateway({ pool, databaseUrl, spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-spool-")), maxBodyBytes: 1 << 20, overloadQueue: process.env.BENCH_OVERLOAD !== "fifo" });
const url = await gateway.listen(0);
console.log(JSON.stringify({ url }));

const report = process.env.BENCH_LOOP_REPORT ? watchLoop() : null;
process.on("SIGTERM", () => {
  if (report) console.error(JSON.stringify(report()));
  void gateway.close().then(() => process.exit(0));
});

function watchLoop() {
  const gcs: { start: number; ms: number; kind: number }[] = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gcs.push({ start: e.startTime, ms: e.duration, kind: ((e as { detail?: { kind?: number } }).detail?.kind ?? 0) });
  }).observe({ entryTypes: ["gc"] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const stalls: { at: number; ms: number }[] = [];
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 6) stalls.push({ at: last, ms: now - last - 1 });
    last = now;
  }, 1).unref();
  return () => {
    const byGc = stalls.filter((s) => gcs.some((g) => g.start < s.at + s.ms && g.start + g.ms > s.at));
    const sum = (xs: number[]) => +xs.reduce((a, b) => a + b, 0).toFixed(1);
    return {
      loop_p99_ms: +(delay.percentile(99) / 1e6).toFixed(2),
      loop_max_ms: +(delay.max / 1e6).toFixed(2),
      stalls_over_5ms: stalls.length,
      stalls_with_gc: byGc.length,
      stall_ms_total: sum(stalls.map((s) => s.ms)),
      gc_count: gcs.length,
      gc_ms_total: sum(gcs.map((g) => g.ms)),
      gc_max_ms: +Math.max(0, ...gcs.map((g) => g.ms)).toFixed(2),
      major_gc_count: gcs.filter((g) => g.kind === 4 || g.kind === 2).length,
    };
  };
}
