import { SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { env } from "../env.ts";
import { tracerProvider, tracesUrl } from "./tracer-provider.ts";

/*
 * The app's traces: one SERVER span per tRPC procedure (`trpc <path>`), with who called it (role)
 * and how it ended, so a slow page can be followed to the procedure behind it. Off unless an OTLP
 * endpoint is configured, like the gateway's.
 */
let tracer: Tracer | null | undefined;

export function appTracer(): Tracer | null {
  if (tracer === undefined) {
    const url = tracesUrl();
    tracer = url ? tracerProvider({ url, serviceName: env.OTEL_SERVICE_NAME ?? "kule-app", sampleRatio: env.KULE_OTEL_SAMPLE_RATIO }).getTracer("kule-app") : null;
  }
  return tracer;
}

/** Tests trace to their own exporter. */
export function setAppTracer(t: Tracer | null) {
  tracer = t;
}

/** Runs a procedure inside its span; `outcome` tells the error code, if any, once it has run. */
export async function traceProcedure<T>(path: string, type: string, role: string | null, run: () => Promise<T>, outcome: (r: T) => string | null): Promise<T> {
  const t = appTracer();
  if (!t) return run();
  const span = t.startSpan(`trpc ${path}`, { kind: SpanKind.SERVER, attributes: { "rpc.system": "trpc", "rpc.method": path, "kule.procedure_type": type, ...(role ? { "kule.role": role } : {}) } });
  try {
    const r = await run();
    const error = outcome(r);
    if (error) {
      span.setAttribute("error.type", error);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return r;
  } finally {
    span.end();
  }
}
