import http from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";

export interface AdminOptions {
  port: number;
  /** Loopback by default: Prometheus beside the gateway scrapes it, the internet does not. */
  host: string;
  /** When set, /metrics and /sd answer only `Authorization: Bearer <token>` (needed off loopback). */
  token: string | null;
}

const isLoopback = (host: string) => host === "127.0.0.1" || host === "::1" || host === "localhost";

/** Off loopback the metrics (per-tenant series) would be open to anyone who reaches the port: a token is required then. */
export function checkAdminOptions(o: AdminOptions) {
  if (!isLoopback(o.host) && !o.token) throw new Error(`KULE_GATEWAY_ADMIN_HOST=${o.host} exposes the gateway's metrics beyond this machine: set KULE_METRICS_TOKEN too (Prometheus sends it as a bearer token).`);
}

function authorized(req: http.IncomingMessage, token: string | null): boolean {
  if (!token) return true;
  const given = Buffer.from(req.headers.authorization ?? "");
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The gateway's internals on a listener of their own: /metrics (per-tenant series) and /sd (the
 * scrape target it announces), kept off the port tenants call. Prometheus reaches it on loopback,
 * or with a bearer token when it must listen wider.
 */
export async function startAdminServer(o: AdminOptions, serve: { metrics: () => Promise<{ text: string; contentType: string }> }): Promise<http.Server> {
  checkAdminOptions(o);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return void res.end("ok");
    if (req.method !== "GET" || (path !== "/metrics" && path !== "/sd")) {
      res.writeHead(404, { "content-type": "text/plain" });
      return void res.end("The gateway's admin listener serves /metrics, /sd and /healthz.\n");
    }
    if (!authorized(req, o.token)) {
      res.writeHead(401, { "content-type": "text/plain", "www-authenticate": "Bearer" });
      return void res.end("Send the metrics token as 'Authorization: Bearer <KULE_METRICS_TOKEN>'.\n");
    }
    if (path === "/sd") {
      // Prometheus http_sd: the gateway announces its admin address, so every gateway started is scraped.
      const a = server.address() as AddressInfo;
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify([{ targets: [`${a.address}:${a.port}`], labels: { job: "kule-gateway" } }]));
    }
    serve.metrics().then(
      ({ text, contentType }) => (res.writeHead(200, { "content-type": contentType }), res.end(text)),
      (e: Error) => (res.writeHead(503, { "content-type": "text/plain" }), res.end(`Metrics are unavailable: ${e.message}\n`)),
    );
  });
  await new Promise<void>((r) => server.listen(o.port, o.host, () => r()));
  return server;
}
