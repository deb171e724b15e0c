import http from "node:http";
import type { Socket } from "node:net";
import { ApiError, errors } from "./status-error.ts";
import { handleRest } from "./rest-handler.ts";
import type { Registry } from "./registry.ts";
import type { WatchHub } from "./watch-hub.ts";

/**
 * The HTTP face of the stand-in. It can go away and come back on the same port, as an API server
 * does when it restarts: open connections (watches included) drop, the store survives.
 */
export class ApiServer {
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;
  /** The latest requests served (method, path and query), for tests and benchmarks that count them. */
  readonly requestLog: { method: string; url: string; at: number }[] = [];

  constructor(
    private readonly registry: Registry,
    private readonly watches: WatchHub,
    private readonly host = "127.0.0.1",
  ) {}

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://${this.host}:${this.boundPort}`;
  }

  get listening(): boolean {
    return this.server?.listening ?? false;
  }

  async listen(port = this.boundPort): Promise<void> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, this.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.boundPort = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops listening and drops every open connection, watches first. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.watches.closeAll();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", this.url);
    this.requestLog.push({ method: req.method ?? "GET", url: url.pathname + url.search, at: Date.now() });
    if (this.requestLog.length > 20_000) this.requestLog.splice(0, 10_000);
    try {
      const reply = handleRest(this.registry, this.watches, req, res, url, Buffer.concat(chunks).toString("utf8"), `${this.host}:${this.boundPort}`);
      if (reply) send(res, reply.code, reply.body);
    } catch (e) {
      const err = e instanceof ApiError ? e : internalError(e);
      if (!res.headersSent) send(res, err.code, err.status);
      else res.end();
    }
  }
}

function internalError(e: unknown): ApiError {
  return errors.internal((e as Error)?.message ?? String(e));
}

function send(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-cache, private" });
  res.end(text);
}
