import { SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { PushMetricExporter } from "@opentelemetry/sdk-metrics";
import { env } from "../env.ts";
import { tracerProvider, tracesUrl } from "./tracer-provider.ts";
import { InPlaceHistogram, meterProvider } from "./meter-provider.ts";
import { otlpUrl } from "./otlp-url.ts";

/*
 * The app's traces and metrics: one SERVER span per tRPC procedure (`trpc <path>`), with who
 * called it (role) and how it ended, so a slow page can be followed to the procedure behind it;
 * and each procedure's time in `rpc.server.call.duration` (OpenTelemetry's RPC conventions). Off
 * unless an OTLP endpoint is configured, like the gateway's.
 */
let tracer: Tracer | null | undefined;
let durations: InPlaceHistogram | null | undefined;
let appMeters: ReturnType<typeof meterProvider> | null = null;
const serviceName = () => env.OTEL_SERVICE_NAME ?? "kule-app";

export function appTracer(): Tracer | null {
  if (tracer === undefined) {
    const url = tracesUrl();
    tracer = url ? tracerProvider({ url, serviceName: serviceName(), sampleRatio: env.KULE_OTEL_SAMPLE_RATIO }).getTracer("kule-app") : null;
  }
  return tracer;
}

/** The procedures' durations, exported to the OTLP metrics endpoint (or `exporter`: tests); null when metrics are off. */
function appDurations(exporter?: PushMetricExporter): InPlaceHistogram | null {
  if (durations === undefined || exporter) {
    const url = otlpUrl("metrics");
    if (!url && !exporter) return (durations = null);
    durations = new InPlaceHistogram({
      name: "rpc.server.call.duration",
      unit: "s",
      description: "Measures the duration of an incoming Remote Procedure Call (RPC).",
      boundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
    });
    appMeters = meterProvider({ url, exporter, serviceName: serviceName(), scope: "kule-app", intervalMs: env.OTEL_METRIC_EXPORT_INTERVAL, histograms: [durations] });
  }
  return durations;
}

/** Tests trace to their own exporter. */
export function setAppTracer(t: Tracer | null) {
  tracer = t;
}

/** Tests export metrics to their own exporter (null: off); resolves with a flush of what was recorded. */
export function setAppMetrics(exporter: PushMetricExporter | null): () => Promise<void> {
  if (exporter) appDurations(exporter);
  else durations = null;
  return async () => void (await appMeters?.forceFlush());
}

/** Runs a procedure inside its span; `outcome` tells the error code, if any, once it has run. */
export async function traceProcedure<T>(path: string, type: string, role: string | null, run: () => Promise<T>, outcome: (r: T) => string | null): Promise<T> {
  const t = appTracer();
  const d = appDurations();
  if (!t && !d) return run();
  const started = performance.now();
  const span = t?.startSpan(`trpc ${path}`, { kind: SpanKind.SERVER, attributes: { "rpc.system": "trpc", "rpc.method": path, "kule.procedure_type": type, ...(role ? { "kule.role": role } : {}) } });
  let error: string | null = "exception";
  try {
    const r = await run();
    error = outcome(r);
    if (error) {
      span?.setAttribute("error.type", error);
      span?.setStatus({ code: SpanStatusCode.ERROR });
    }
    return r;
  } finally {
    span?.end();
    if (d) {
      const key = `${path}\0${error ?? ""}`;
      const seconds = (performance.now() - started) / 1000;
      if (!d.record(key, seconds)) d.start(key, { "rpc.system": "trpc", "rpc.method": path, ...(error ? { "error.type": error } : {}) }, seconds);
    }
  }
}
