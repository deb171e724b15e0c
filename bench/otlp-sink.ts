/**
 * An OTLP/HTTP endpoint (protobuf or JSON) that counts the spans and metric data points it is sent and keeps nothing:
 * the traced gateway's collector in bench/gateway.ts. A process of its own, as a collector is: the
 * bench's own process blocks while a load generator runs, and a sink in it would leave every
 * export of a round waiting (and timing out, and being retried) on the gateway's side.
 * Prints {"url"} once listening; GET /counts answers {"spans", "metricPoints"}.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { countMetricPoints, countSpans } from "../server/test/otlp-decode.ts";

let spans = 0;
let metricPoints = 0;
const server = http.createServer((req, res) => {
  if (req.method === "GET") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ spans, metricPoints }));
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const type = req.headers["content-type"];
    const body = Buffer.concat(chunks);
    if (req.url === "/v1/traces") spans += countSpans(type, body);
    if (req.url === "/v1/metrics") metricPoints += countMetricPoints(type, body);
    // An empty protobuf answer is an ExportServiceResponse with nothing rejected, as "{}" is in JSON.
    if (type?.startsWith("application/json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
    else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
  });
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
