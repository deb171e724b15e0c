import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, defaultTextMapGetter, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { tracerProvider } from "../telemetry/tracer-provider.ts";
import type { OtlpProtocol } from "../telemetry/otlp-exporters.ts";
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

/** The GenAI operation name (`gen_ai.operation.name`) of a call that came in on route `kind`. */
export function genAiOperation(kind: string): string {
  return OPERATIONS[kind] ?? kind;
}

/** A replica's `server.address` and `server.port`, parsed once per replica URL (a URL parse per attempt showed in profiles). */
const addresses = new Map<string, { address: string; port: number }>();
export function replicaAddress(url: string): { address: string; port: number } {
  let a = addresses.get(url);
  if (!a) {
    const u = new URL(url);
    addresses.set(url, (a = { address: u.hostname, port: Number(u.port || (u.protocol === "https:" ? 443 : 80)) }));
  }
  return a;
}

/**
 * An attempt span's name and attributes, built once per operation, model and replica rather than
 * per attempt (the SDK copies them into the span). Models and replicas come from the gateway's
 * config, so the map stays small; it starts again if it ever holds more than MAX_SHAPES.
 */
const MAX_SHAPES = 4096;
const attemptShapes = new Map<string, { name: string; attributes: Attributes }>();
function attemptShape(operation: string, model: string, replica: { id: string; url: string }) {
  const key = `${operation}\0${model}\0${replica.id}`;
  let shape = attemptShapes.get(key);
  if (!shape) {
    if (attemptShapes.size >= MAX_SHAPES) attemptShapes.clear();
    const { address, port } = replicaAddress(replica.url);
    shape = { name: `${operation} ${model}`, attributes: { "gen_ai.operation.name": operation, "gen_ai.request.model": model, "server.address": address, "server.port": port, "kule.replica": replica.id } };
    attemptShapes.set(key, shape);
  }
  return shape;
}

/**
 * Starts a span and then sets its attributes: the SDK checks and copies attributes given to
 * startSpan twice (for the sampler, then for the span), each value check allocating a WeakSet,
 * where setAttributes checks each once. Kule's samplers (ratio, parent-based) read no attributes.
 */
function startSpan(tracer: Tracer, name: string, kind: SpanKind, attributes: Attributes, parent: Context, startTime?: number): Span {
  const span = tracer.startSpan(name, { kind, startTime }, parent);
  return span.setAttributes(attributes);
}

/** A span's context as a W3C `traceparent` value, written directly (the propagator's carrier and context cost more per call). */
function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-${c.traceFlags & TraceFlags.SAMPLED ? "01" : "00"}`;
}

/** The error type of an attempt that failed (thrown, or a 5xx answer); null when it did not. */
export function attemptErrorType(status: number, error?: string): string | null {
  return error ?? (status >= 500 ? String(status) : null);
}

/*
 * Spans and their handles are class instances rather than objects of closures: the gateway runs
 * under tsx, whose keep-names helper renames every closure created per call, which showed in the
 * profile of a traced gateway.
 */

/** One attempt at a replica: a CLIENT span, child of the call's. */
export class AttemptSpan {
  readonly traceparent: string;
  constructor(private readonly span: Span) {
    this.traceparent = traceparentOf(span);
  }

  end(status: number, error?: string) {
    const span = this.span;
    span.setAttribute("http.response.status_code", status);
    const errorType = attemptErrorType(status, error);
    if (errorType) {
      span.setAttribute("error.type", errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

/** The call's SERVER span: its trace id (for the call-log row), its `traceparent` (for the answer) and its attempts' spans. */
export class CallTrace {
  readonly traceId: string;
  readonly traceparent: string;
  private ctx: Context | null = null;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly parent: Context,
    private readonly operation: string,
    private readonly model: string | null,
  ) {
    this.traceId = span.spanContext().traceId;
    this.traceparent = traceparentOf(span);
  }

  /** Starts the span of one attempt at a replica of `model` (the endpoint). */
  attempt(replica: { id: string; url: string }, model: string): AttemptSpan {
    this.ctx ??= trace.setSpan(this.parent, this.span);
    const { name, attributes } = attemptShape(this.operation, model, replica);
    return new AttemptSpan(startSpan(this.tracer, name, SpanKind.CLIENT, attributes, this.ctx));
  }

  /** Ends the call's span with what the call did. */
  end(call: GatewayCall) {
    const span = this.span;
    if (call.endpoint) {
      // The name and model were set at the start when the request named its model; only a
      // different endpoint (an alias, a gRPC call) renames it.
      if (call.endpoint.slug !== this.model) {
        span.updateName(`${this.operation} ${call.endpoint.slug}`);
        span.setAttribute("gen_ai.request.model", call.endpoint.slug);
      }
      // slug@version names the version too (no kule.version beside it).
      if (call.version) span.setAttribute("gen_ai.response.model", `${call.endpoint.slug}@${call.version.label}`);
    }
    span.setAttribute("http.response.status_code", call.status);
    span.setAttribute("gen_ai.usage.input_tokens", call.promptTokens);
    span.setAttribute("gen_ai.usage.output_tokens", call.completionTokens);
    if (call.tenant) span.setAttribute("kule.tenant", call.tenant.slug);
    if (call.ttftMs !== null) span.setAttribute("gen_ai.server.time_to_first_token", call.ttftMs / 1000);
    span.setAttribute("kule.request_id", call.requestId);
    if (call.status >= 400) {
      span.setAttribute("error.type", call.errorClass ?? String(call.status));
      if (call.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

export class GatewayTracing {
  private constructor(
    private readonly provider: TracerProvider,
    private readonly tracer: Tracer,
  ) {}

  /** Tracing to an OTLP/HTTP endpoint (`…/v1/traces`), or to a given exporter (tests). */
  static create(opts: { url?: string; protocol?: OtlpProtocol; exporter?: SpanExporter; serviceName: string; sampleRatio: number }): GatewayTracing {
    const provider = tracerProvider(opts);
    return new GatewayTracing(provider, provider.getTracer("kule-gateway"));
  }

  /** The call's span, continuing the caller's `traceparent` (HTTP headers, gRPC metadata) if it sent one. */
  begin(carrier: Record<string, string | string[] | undefined>, operation: string, model: string | null, startTime: number): CallTrace {
    // Only a caller's traceparent has anything to extract (tracestate alone continues nothing).
    const parent = carrier.traceparent ? propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter) : ROOT_CONTEXT;
    const attributes: Attributes = model ? { "gen_ai.operation.name": operation, "gen_ai.request.model": model } : { "gen_ai.operation.name": operation };
    const span = startSpan(this.tracer, model ? `${operation} ${model}` : operation, SpanKind.SERVER, attributes, parent, startTime);
    return new CallTrace(this.tracer, span, parent, operation, model);
  }

  async shutdown() {
    await this.provider.shutdown().catch(() => {});
  }

  async flush() {
    await this.provider.forceFlush();
  }
}
