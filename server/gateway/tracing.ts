import type { IncomingHttpHeaders } from "node:http";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, defaultTextMapSetter, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { tracerProvider } from "../telemetry/tracer-provider.ts";
import type { GatewayCall } from "./call.ts";

/**
 * The gateway's OpenTelemetry traces, under the GenAI semantic conventions: one SERVER span per
 * inference call (`chat <model>`, `embeddings <model>`, …) continuing the caller's `traceparent`,
 * and one CLIENT span per attempt at a replica, whose context goes to the replica in
 * `traceparent`. The answer carries the server span's `traceparent`, and the call-log row its
 * trace id. Spans are exported in batches over OTLP/HTTP, off the request's path; off (no cost)
 * unless an OTLP endpoint is configured.
 */
const propagator = new W3CTraceContextPropagator();

/** The GenAI operation of each gateway route (KServe v2 inference is not a GenAI operation: `infer`). */
const OPERATIONS: Record<string, string> = { chat: "chat", completions: "text_completion", embeddings: "embeddings", infer: "infer" };

export interface CallTrace {
  traceId: string;
  /** The server span's context, for the answer's `traceparent` header. */
  traceparent: string;
  /** Starts the span of one attempt at a replica of `model` (the endpoint); returns the `traceparent` to send it and how to end it. */
  attempt(replica: { id: string; url: string }, model: string): { traceparent: string; end: (status: number, error?: string) => void };
  /** Ends the call's span with what the call did. */
  end(call: GatewayCall): void;
}

export class GatewayTracing {
  private constructor(
    private readonly provider: TracerProvider,
    private readonly tracer: Tracer,
  ) {}

  /** Tracing to an OTLP/HTTP endpoint (`…/v1/traces`), or to a given exporter (tests). */
  static create(opts: { url?: string; exporter?: SpanExporter; serviceName: string; sampleRatio: number }): GatewayTracing {
    const provider = tracerProvider(opts);
    return new GatewayTracing(provider, provider.getTracer("kule-gateway"));
  }

  begin(headers: IncomingHttpHeaders, kind: string, model: string | null, startTime: number): CallTrace {
    const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const operation = OPERATIONS[kind] ?? kind;
    const span = this.tracer.startSpan(model ? `${operation} ${model}` : operation, { kind: SpanKind.SERVER, startTime, attributes: { "gen_ai.operation.name": operation, ...(model ? { "gen_ai.request.model": model } : {}) } }, parent);
    const ctx = trace.setSpan(parent, span);
    return {
      traceId: span.spanContext().traceId,
      traceparent: traceparentOf(ctx),
      attempt: (replica, endpoint) => this.attempt(ctx, operation, endpoint, replica),
      end: (call) => endCall(span, operation, call),
    };
  }

  private attempt(ctx: Context, operation: string, model: string, replica: { id: string; url: string }) {
    const url = new URL(replica.url);
    const span = this.tracer.startSpan(`${operation} ${model}`, { kind: SpanKind.CLIENT, attributes: { "gen_ai.operation.name": operation, "gen_ai.request.model": model, "server.address": url.hostname, "server.port": Number(url.port || 80), "kule.replica": replica.id } }, ctx);
    return {
      traceparent: traceparentOf(trace.setSpan(ctx, span)),
      end: (status: number, error?: string) => {
        span.setAttribute("http.response.status_code", status);
        if (error || status >= 500) {
          span.setAttribute("error.type", error ?? String(status));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  }

  async shutdown() {
    await this.provider.shutdown().catch(() => {});
  }

  async flush() {
    await this.provider.forceFlush();
  }
}

function traceparentOf(ctx: Context): string {
  const carrier: Record<string, string> = {};
  propagator.inject(ctx, carrier, defaultTextMapSetter);
  return carrier.traceparent ?? "";
}

function endCall(span: Span, operation: string, call: GatewayCall) {
  if (call.endpoint) {
    span.updateName(`${operation} ${call.endpoint.slug}`);
    span.setAttribute("gen_ai.request.model", call.endpoint.slug);
  }
  span.setAttributes({
    "http.response.status_code": call.status,
    "gen_ai.usage.input_tokens": call.promptTokens,
    "gen_ai.usage.output_tokens": call.completionTokens,
    ...(call.version ? { "gen_ai.response.model": `${call.endpoint!.slug}@${call.version.label}`, "kule.version": call.version.label } : {}),
    ...(call.tenant ? { "kule.tenant": call.tenant.slug } : {}),
    ...(call.ttftMs !== null ? { "gen_ai.server.time_to_first_token": call.ttftMs / 1000 } : {}),
    "kule.request_id": call.requestId,
  });
  if (call.status >= 400) {
    span.setAttribute("error.type", call.errorClass ?? String(call.status));
    if (call.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
