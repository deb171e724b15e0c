import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

/**
 * Reads what an OTLP/HTTP exporter sends, in either encoding the gateway can be set to: protobuf
 * (decoded with the vendored opentelemetry-proto messages) or JSON. Both come out in OTLP/JSON's
 * shape (camelCase fields, ids as hex, 64-bit counts as strings), so a test reads them alike.
 */
const PROTOS = path.join(path.dirname(fileURLToPath(import.meta.url)), "vendor/opentelemetry-proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(PROTOS, target);
root.loadSync(["opentelemetry/proto/collector/trace/v1/trace_service.proto", "opentelemetry/proto/collector/metrics/v1/metrics_service.proto"]);
const TraceRequest = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const MetricsRequest = root.lookupType("opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest");

const isJson = (contentType: string | undefined) => contentType?.startsWith("application/json") ?? false;
const hex = (b: unknown) => (b instanceof Uint8Array ? Buffer.from(b).toString("hex") : b);

/** A batch of spans as OTLP/JSON's `ExportTraceServiceRequest`. */
export function decodeTraces(contentType: string | undefined, body: Buffer): { resourceSpans?: { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] } {
  if (isJson(contentType)) return JSON.parse(body.toString("utf8"));
  const request = TraceRequest.toObject(TraceRequest.decode(body), { longs: String, enums: Number }) as ReturnType<typeof decodeTraces>;
  for (const rs of request.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) for (const id of ["traceId", "spanId", "parentSpanId"]) if (id in span) span[id] = hex(span[id]);
  return request;
}

/** A batch of metrics as OTLP/JSON's `ExportMetricsServiceRequest`. */
export function decodeMetrics(contentType: string | undefined, body: Buffer): { resourceMetrics?: { scopeMetrics?: { metrics?: Record<string, unknown>[] }[] }[] } {
  if (isJson(contentType)) return JSON.parse(body.toString("utf8"));
  return MetricsRequest.toObject(MetricsRequest.decode(body), { longs: String, enums: Number }) as ReturnType<typeof decodeMetrics>;
}

/** How many spans a batch holds, without building their objects (the bench's sink counts every span it is sent). */
export function countSpans(contentType: string | undefined, body: Buffer): number {
  if (isJson(contentType)) return (body.toString("utf8").match(/"spanId"/g) ?? []).length;
  const request = TraceRequest.decode(body) as unknown as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
  let n = 0;
  for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  return n;
}

/** How many metric data points a batch holds. */
export function countMetricPoints(contentType: string | undefined, body: Buffer): number {
  let n = 0;
  for (const rm of decodeMetrics(contentType, body).resourceMetrics ?? [])
    for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) n += ((m.histogram as { dataPoints?: unknown[] } | undefined)?.dataPoints ?? []).length;
  return n;
}
