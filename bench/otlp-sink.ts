import http from "node:http";
import type { AddressInfo } from "node:net";

/** An OTLP/HTTP endpoint that counts the spans it is sent and keeps nothing (the traced gateway's collector). */
export async function otlpSink() {
  let spans = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      spans += (body.match(/"spanId"/g) ?? []).length;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans: () => spans, stop: () => server.close() };
}
