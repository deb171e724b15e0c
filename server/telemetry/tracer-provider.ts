import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { env } from "../env.ts";
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
    // Batches of 512 (OpenTelemetry's default size): each export has a cost of its own (an HTTP
    // request, the resource and scope written again), and 512 spans at a time cost about a quarter
    // less CPU per span than 128 did. An export encodes its batch on the event loop in one go, so a
    // smaller OTEL_BSP_MAX_EXPORT_BATCH_SIZE trades that CPU for shorter pauses.
    spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 8192, maxExportBatchSize: env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY })],
  });
}
