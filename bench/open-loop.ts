/**
 * An open-loop load generator at a fixed rate, run in its own process by bench/gateway.ts:
 * request i is sent at start + i/rate whatever happened to earlier ones (up to `connections`
 * in flight), so a slow answer delays nobody else's send and is measured in full.
 *
 * Why not hey or autocannon: hey's `-q` paces each of its workers on its own ticker, and the
 * workers start together, so `-c 50 -q 20` sends 50 requests at the same instant every 50 ms
 * rather than one a millisecond; autocannon's fixed rate lets each connection send its quota at
 * the start of every second. Both measure bursts, not a rate. (wrk2, which does this, is not in
 * Debian.)
 *
 * Why plain sockets rather than an HTTP client: the generator shares the two cores with what it
 * measures, so its own CPU is contention every target pays. undici cost about 0.4 ms of CPU per
 * request here; this client, which writes one prebuilt request and reads the status line and the
 * body's framing, about 0.2. With undici, HAProxy seemed to add 2 ms at p99; with this, under 1.
 *
 * Input (argv): a JSON {url, rate, seconds, connections, headers, body}. Output: one JSON line
 * {sent, ok, errors, p50_ms, p90_ms, p99_ms, max_ms, late_p99_ms} — `late` is how far behind
 * its schedule the generator itself sent (its own noise, the same for every target).
 */
import net from "node:net";

const opts = JSON.parse(process.argv[2]!) as { url: string; rate: number; seconds: number; connections: number; headers: Record<string, string>; body: string };
const u = new URL(opts.url);
const body = Buffer.from(opts.body);
const head = [`POST ${u.pathname} HTTP/1.1`, `host: ${u.host}`, "content-type: application/json", `content-length: ${body.length}`, ...Object.entries(opts.headers).map(([k, v]) => `${k}: ${v}`)];
const request = Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n", "latin1"), body]);

// The first second warms up the generator itself (JIT, connections) and is not recorded.
const warm = opts.rate;
const total = warm + opts.rate * opts.seconds;
const latencies = new Float64Array(total);
const late = new Float64Array(total);
let sent = 0;
let done = 0;
let ok = 0;
let errors = 0;

/** One keep-alive connection: at most one request in flight (no pipelining). */
interface Conn {
  socket: net.Socket;
  pending: Buffer;
  request: number;
  closed: boolean;
}
const idle: Conn[] = [];
const waiting: number[] = [];
let open = 0;
/** When each request was due to go out and did (a wait for a free connection is part of its latency). */
const sentAt = new Float64Array(total);

function settle(i: number, status: number) {
  latencies[i] = performance.now() - sentAt[i]!;
  if (i >= warm) {
    if (status === 200) ok++;
    else errors++;
  }
  if (++done === total) finish();
}

/**
 * Where the response at the start of `b` ends, or null if it has not all arrived: the status
 * line, the headers, then a body framed by Content-Length or chunked encoding.
 */
function responseEnd(b: Buffer): { end: number; status: number; close: boolean } | null {
  const headEnd = b.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const headers = b.toString("latin1", 0, headEnd).toLowerCase();
  const status = Number(headers.slice(9, 12));
  // The server will close the connection after this answer (a busy gateway worker letting it go).
  const close = /\r\nconnection:\s*close/.test(headers);
  const length = /\r\ncontent-length:\s*(\d+)/.exec(headers);
  if (length) {
    const end = headEnd + 4 + Number(length[1]);
    return b.length >= end ? { end, status, close } : null;
  }
  if (!/\r\ntransfer-encoding:[^\r]*chunked/.test(headers)) return { end: headEnd + 4, status, close };
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = b.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = parseInt(b.toString("latin1", at, lineEnd), 16);
    if (size === 0) {
      // The last chunk, then optional trailers, then an empty line.
      const end = b.indexOf("\r\n\r\n", lineEnd);
      return end < 0 ? null : { end: end + 4, status, close };
    }
    at = lineEnd + 2 + size + 2;
    if (b.length < at) return null;
  }
}

function connect(): Conn {
  const c: Conn = { socket: net.connect(Number(u.port || 80), u.hostname), pending: Buffer.alloc(0), request: -1, closed: false };
  open++;
  c.socket.setNoDelay(true);
  c.socket.on("data", (d: Buffer) => {
    c.pending = c.pending.length ? Buffer.concat([c.pending, d]) : d;
    const r = responseEnd(c.pending);
    if (!r) return;
    c.pending = c.pending.subarray(r.end);
    if (c.request < 0) return; // nothing was asked: not a response to count
    const i = c.request;
    c.request = -1;
    settle(i, r.status);
    // As HTTP clients do: no further request on a connection the server is closing; its 'close' opens another for whatever waits.
    if (r.close) c.socket.end();
    else release(c);
  });
  // 'close' follows 'error': the request the connection carried fails; later sends open another.
  c.socket.on("error", () => {});
  c.socket.on("close", () => {
    c.closed = true;
    open--;
    if (c.request >= 0) settle(c.request, 0);
    c.request = -1;
    const next = waiting.shift();
    if (next !== undefined) fire(connect(), next);
  });
  return c;
}

function fire(c: Conn, i: number) {
  c.request = i;
  c.socket.write(request);
}

function release(c: Conn) {
  const next = waiting.shift();
  if (next !== undefined) fire(c, next);
  else idle.push(c);
}

function send(i: number, scheduled: number) {
  const now = performance.now();
  late[i] = now - scheduled;
  sentAt[i] = now;
  let c = idle.pop();
  while (c?.closed) c = idle.pop();
  c ??= open < opts.connections ? connect() : undefined;
  if (c) fire(c, i);
  else waiting.push(i); // every connection busy: the request waits its turn
}

const pct = (xs: Float64Array, p: number) => {
  const s = xs.slice(warm).sort();
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2);
};

function finish() {
  console.log(JSON.stringify({ sent: sent - warm, ok, errors, p50_ms: pct(latencies, 50), p90_ms: pct(latencies, 90), p99_ms: pct(latencies, 99), max_ms: pct(latencies, 100), late_p99_ms: pct(late, 99) }));
  process.exit(0);
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
