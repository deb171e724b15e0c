/**
 * Many concurrent streamed chat calls against one URL (the gateway bench's `stream` figures), in a
 * process of its own: `streams` calls opened over the first second, each asking `tokens` tokens,
 * every token's arrival timed. Prints one JSON line: tokens received, calls that failed or came
 * short, and the inter-token gaps' p50 and p99 over all streams.
 */
import http from "node:http";

const o = JSON.parse(process.argv[2]!) as { url: string; streams: number; tokens: number; headers: Record<string, string> };
const agent = new http.Agent({ keepAlive: true, maxSockets: o.streams });
const body = JSON.stringify({ model: "stream", messages: [{ role: "user", content: "Stream me." }], max_tokens: o.tokens, stream: true });
const TOKEN = /"content":"[^"]/g;
const gaps: number[] = [];
let tokens = 0;
let failed = 0;

function one(): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(o.url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...o.headers } }, (res) => {
      if (res.statusCode !== 200) {
        failed++;
        res.resume();
        return res.on("end", resolve);
      }
      let got = 0;
      let last = 0;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const now = performance.now();
        const n = chunk.match(TOKEN)?.length ?? 0;
        // Tokens that arrive together: the first waited the whole gap, the others none; a stream's first token has no gap.
        for (let i = last ? 0 : 1; i < n; i++) gaps.push(i === 0 ? now - last : 0);
        if (n) last = now;
        got += n;
      });
      res.on("end", () => {
        tokens += got;
        if (got < o.tokens) failed++;
        resolve();
      });
    });
    req.on("error", () => {
      failed++;
      resolve();
    });
    req.end(body);
  });
}

const t0 = performance.now();
await Promise.all(Array.from({ length: o.streams }, (_, i) => new Promise<void>((r) => setTimeout(() => void one().then(r), (1000 * i) / o.streams))));
const seconds = (performance.now() - t0) / 1000;
const sorted = gaps.sort((a, b) => a - b);
const pct = (p: number) => +(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN).toFixed(2);
console.log(JSON.stringify({ tokens, failed, seconds: +seconds.toFixed(2), itl_p50_ms: pct(50), itl_p99_ms: pct(99) }));
agent.destroy();
