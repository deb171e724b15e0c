import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { otlpUrl } from "./otlp-url.ts";
import { otlpSpanExporter, type OtlpProtocol } from "./otlp-exporters.ts";

/** Where traces go (otlp-url.ts); undefined = tracing off. */
export const tracesUrl = () => otlpUrl("traces");

/**
 * The one way Kule's processes (the gateway, the app) set up OpenTelemetry tracing: spans
 * exported in batches over OTLP/HTTP (protobuf unless `protocol` or OTEL_EXPORTER_OTLP_PROTOCOL says
 * JSON; or to a given exporter: tests), a caller's sampling decision kept, calls without one sampled
 * at `sampleRatio`.
 */
export function tracerProvider(opts: { url?: string; protocol?: OtlpProtocol; exporter?: SpanExporter; serviceName: string; sampleRatio: number }): TracerProvider {
  const exporter = opts.exporter ?? otlpSpanExporter(opts.url, opts.protocol);
  return new TracerProvider({
    resource: resourceFromAttributes({ "service.name": opts.serviceName }),
    // At ratio 1 (every call) a ratio sampler would still hash each new trace id to decide.
    sampler: new ParentBasedSampler({ root: opts.sampleRatio >= 1 ? new AlwaysOnSampler() : new TraceIdRatioBasedSampler(opts.sampleRatio) }),
    // Batches of 128: an export encodes its batch synchronously, and 512 spans at a time held the
    // event loop long enough to show in the traced gateway's p99.
    spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 8192, maxExportBatchSize: 128, scheduledDelayMillis: 500 })],
  });
}
