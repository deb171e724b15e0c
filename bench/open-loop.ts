/**
 * An open-loop load generator at a fixed rate, run in its own process by bench/gateway.ts:
 * request i is sent at start + i/rate whatever happened to earlier ones (up to `connections`
 * in flight), so a slow answer delays nobody else's send and is measured in full.
 *
 * Why not hey or autocannon: hey's `-q` paces each of its workers on its own ticker, and the
 * workers start together, so `-c 50 -q 20` sends 50 requests at the same instant every 50 ms
 * rather than one a millisecond; autocannon's fixed rate lets each connection send its quota at
 * the start of every second. Both measure bursts, not a rate.
 *
 * Input (argv): a JSON {url, rate, seconds, connections, headers, body}. Output: one JSON line
 * {sent, ok, errors, p50_ms, p90_ms, p99_ms, max_ms, late_p99_ms} — `late` is how far behind
 * its schedule the generator itself sent (its own noise, the same for every target).
 */
import { Pool } from "undici";

const opts = JSON.parse(process.argv[2]!) as { url: string; rate: number; seconds: number; connections: number; headers: Record<string, string>; body: string };
const u = new URL(opts.url);
const pool = new Pool(u.origin, { connections: opts.connections, pipelining: 1, keepAliveTimeout: 60_000 });
const body = Buffer.from(opts.body);
const headers = { "content-type": "application/json", ...opts.headers };
// The first second warms up the generator itself (JIT, connections) and is not recorded.
const warm = opts.rate;
const total = warm + opts.rate * opts.seconds;
const latencies = new Float64Array(total);
const late = new Float64Array(total);
let sent = 0;
let done = 0;
let ok = 0;
let errors = 0;

function send(i: number, scheduled: number) {
  const t0 = performance.now();
  late[i] = t0 - scheduled;
  pool
    .request({ path: u.pathname, method: "POST", headers, body })
    .then(async (r) => {
      await r.body.dump();
      latencies[i] = performance.now() - t0;
      if (i < warm) return;
      if (r.statusCode === 200) ok++;
      else errors++;
    })
    .catch(() => {
      latencies[i] = performance.now() - t0;
      if (i >= warm) errors++;
    })
    .finally(() => {
      if (++done === total) finish();
    });
}

const pct = (xs: Float64Array, p: number) => {
  const s = xs.slice(warm).sort();
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2);
};

function finish() {
  console.log(JSON.stringify({ sent: sent - warm, ok, errors, p50_ms: pct(latencies, 50), p90_ms: pct(latencies, 90), p99_ms: pct(latencies, 99), max_ms: pct(latencies, 100), late_p99_ms: pct(late, 99) }));
  void pool.close().then(() => process.exit(0));
}

const interval = 1000 / opts.rate;
const start = performance.now() + 50;
// Wake about every millisecond and send everything whose time has come.
function tick() {
  const now = performance.now();
  while (sent < total && start + sent * interval <= now) {
    send(sent, start + sent * interval);
    sent++;
  }
  if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
}
setTimeout(tick, 50);
