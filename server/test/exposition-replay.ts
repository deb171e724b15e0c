import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A recorded exposition replayed as a live exporter: the page as recorded, except that every
 * counter, histogram and summary sample grows in proportion to time (×(1 + seconds since start
 * / 60)), so rates are positive and histograms keep their shape. Gauges stay as recorded.
 */
export function replayed(text: string, startedAt: number, now = Date.now()): string {
  const factor = 1 + (now - startedAt) / 60_000;
  let type = "untyped";
  return text
    .split("\n")
    .map((line) => {
      const t = /^# TYPE \S+ (\S+)/.exec(line);
      if (t) type = t[1]!;
      if (line.startsWith("#") || !line.trim()) return line;
      if (type !== "counter" && type !== "histogram" && type !== "summary") return line;
      const at = line.lastIndexOf(" ");
      const value = Number(line.slice(at + 1));
      return Number.isFinite(value) ? `${line.slice(0, at)} ${value * factor}` : line;
    })
    .join("\n");
}

/** Serves `page()` at /metrics on 127.0.0.1 (a fresh port): each scrape gets the page as it is then. */
export async function servePage(page: () => string | Promise<string>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url !== "/metrics") return void res.writeHead(404).end();
    void Promise.resolve(page()).then((text) => {
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/metrics`, close: () => new Promise((r) => server.close(() => r())) };
}

/** A recorded page from a file, replayed from now on. */
export function replayFile(file: string, transform: (text: string) => string = (t) => t): () => string {
  const text = transform(fs.readFileSync(file, "utf8"));
  const startedAt = Date.now();
  return () => replayed(text, startedAt);
}
