import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SimCluster } from "./cluster.ts";
import { DomainError, httpStatusOf } from "../../errors.ts";
import type { ReplicaSpec } from "../driver.ts";

function send(res: http.ServerResponse, status: number, body: unknown) {
  const data = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

async function json(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (!chunks.length) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new DomainError("body is not valid JSON");
  }
}

type Route = [method: string, pattern: RegExp, handler: (m: RegExpExecArray, req: http.IncomingMessage, res: http.ServerResponse, url: URL) => Promise<unknown> | unknown];

/**
 * The simulator's control API: what a real cluster's API server and node agents would offer a
 * driver (start and stop replicas, lay out MIG, cordon), plus fault injection, the event stream,
 * Prometheus service discovery and each node's dcgm-exporter page.
 */
export function startControlServer(cluster: SimCluster, port: number, host = "127.0.0.1"): Promise<{ server: http.Server; url: string }> {
  let self = "";
  const routes: Route[] = [
    ["GET", /^\/healthz$/, () => ({ ok: true, simulator: true })],
    ["GET", /^\/topology$/, () => cluster.topology()],
    ["GET", /^\/replicas$/, () => cluster.replicaStatuses()],
    ["POST", /^\/replicas$/, async (_m, req) => cluster.startReplica((await json(req)) as unknown as ReplicaSpec)],
    ["GET", /^\/replicas\/([^/]+)$/, (m) => cluster.replica(m[1]!).status()],
    ["POST", /^\/replicas\/([^/]+)\/await-ready$/, (m, _r, _s, url) => cluster.awaitReady(m[1]!, Number(url.searchParams.get("timeoutMs") ?? 60_000))],
    ["DELETE", /^\/replicas\/([^/]+)$/, async (m, _r, _s, url) => (await cluster.stopReplica(m[1]!, Number(url.searchParams.get("drainMs") ?? 0)), { stopped: true })],
    ["POST", /^\/gpus\/([^/]+)\/mig$/, async (m, req) => (await cluster.applyMigLayout(m[1]!, ((await json(req)).layout ?? []) as never), { applied: true })],
    ["POST", /^\/nodes\/([^/]+)\/(cordon|uncordon)$/, (m) => (cluster.setCordon(m[1]!, m[2] === "cordon"), { ok: true })],
    ["GET", /^\/faults$/, () => cluster.faults()],
    ["DELETE", /^\/faults$/, () => (cluster.clearFaults(), { cleared: true })],
    ["POST", /^\/faults\/kill-replica$/, async (_m, req) => (await cluster.killReplica(String((await json(req)).replicaId)), { ok: true })],
    ["POST", /^\/faults\/gpu-xid$/, async (_m, req) => {
      const b = await json(req);
      await cluster.gpuXid(String(b.gpuUuid), Number(b.xid ?? 79));
      return { ok: true };
    }],
    ["POST", /^\/faults\/node-status$/, async (_m, req) => {
      const b = await json(req);
      await cluster.setNodeStatus(String(b.hostname), b.status === "down" ? "down" : "ready");
      return { ok: true };
    }],
    ["POST", /^\/faults\/slow-replica$/, async (_m, req) => {
      const b = await json(req);
      cluster.slowReplica(String(b.replicaId), Number(b.factor));
      return { ok: true };
    }],
    ["POST", /^\/faults\/version-errors$/, async (_m, req) => {
      const b = await json(req);
      cluster.setVersionErrorShare(String(b.versionId), Number(b.share));
      return { ok: true };
    }],
    ["GET", /^\/sd$/, () => cluster.serviceDiscovery(self)],
  ];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sim");
    if (req.method === "GET" && url.pathname === "/events") return streamEvents(cluster, req, res);
    const dcgm = /^\/dcgm\/([^/]+)\/metrics$/.exec(url.pathname);
    if (req.method === "GET" && dcgm) {
      try {
        const text = cluster.dcgmText(decodeURIComponent(dcgm[1]!));
        if (text === null) return send(res, 503, { error: "node is down" });
        res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
        return res.end(text);
      } catch (e) {
        return send(res, httpStatusOf(e), { error: String((e as Error).message) });
      }
    }
    for (const [method, pattern, handler] of routes) {
      const m = req.method === method ? pattern.exec(url.pathname) : null;
      if (!m) continue;
      Promise.resolve()
        .then(() => handler(m, req, res, url))
        .then(
          (body) => send(res, 200, body),
          (e: unknown) => send(res, httpStatusOf(e), { error: e instanceof Error ? e.message : String(e) }),
        );
      return;
    }
    send(res, 404, { error: `No route ${req.method} ${url.pathname}` });
  });
  return new Promise((resolve) =>
    server.listen(port, host, () => {
      const a = server.address() as AddressInfo;
      self = `${host}:${a.port}`;
      resolve({ server, url: `http://${self}` });
    }),
  );
}

/** Server-sent events: every cluster event as it happens, with a heartbeat so proxies keep it open. */
function streamEvents(cluster: SimCluster, req: http.IncomingMessage, res: http.ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.write(": connected\n\n");
  const off = cluster.subscribe((e) => res.write(`data: ${JSON.stringify(e)}\n\n`));
  const beat = setInterval(() => res.write(": heartbeat\n\n"), 15_000);
  req.on("close", () => (off(), clearInterval(beat)));
}
