/**
 * A bare Node proxy (node:http in, an undici pool out, nothing else): the floor any Node gateway
 * starts from, measured beside Kule's gateway in bench/gateway.ts. Prints {"url"} once listening.
 */
import http from "node:http";
import { Pool } from "undici";

const upstream = new Pool(process.env.BENCH_UPSTREAM_URL!, { connections: Number(process.env.BENCH_UPSTREAM_CONNECTIONS ?? 64), pipelining: 1, keepAliveTimeout: 60_000 });
const server = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const up = await upstream.request({ path: req.url!, method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
  const type = String(up.headers["content-type"] ?? "application/json");
  res.writeHead(up.statusCode, { "content-type": type });
  // A stream passes through chunk by chunk (the bench's `stream` figures); an answer whole, as before.
  if (type.startsWith("text/event-stream")) {
    for await (const c of up.body) res.write(c);
    return void res.end();
  }
  res.end(Buffer.from(await up.body.arrayBuffer()));
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
process.on("SIGTERM", () => process.exit(0));
