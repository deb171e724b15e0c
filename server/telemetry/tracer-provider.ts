import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { otlpUrl } from "./otlp-url.ts";

/** Where traces go (otlp-url.ts); undefined = tracing off. */
export const tracesUrl = () => otlpUrl("traces");

/**
 * The one way Kule's processes (the gateway, the app) set up OpenTelemetry tracing: spans
 * exported in batches over OTLP/HTTP (or to a given exporter: tests), a caller's sampling decision
 * kept, calls without one sampled at `sampleRatio`.
 */
export function tracerProvider(opts: { url?: string; exporter?: SpanExporter; serviceName: string; sampleRatio: number }): TracerProvider {
  const exporter = opts.exporter ?? new OTLPTraceExporter({ url: opts.url });
  return new TracerProvider({
    resource: resourceFromAttributes({ "service.name": opts.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(opts.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 8192, maxExportBatchSize: 512, scheduledDelayMillis: 1000 })],
  });
}
