import { env } from "../env.ts";

/**
 * Where one OpenTelemetry signal goes, by OpenTelemetry's own variables: its own endpoint as given
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, …_METRICS_ENDPOINT), else the base endpoint's
 * `/v1/<signal>`; undefined = that signal is off.
 */
export function otlpUrl(signal: "traces" | "metrics"): string | undefined {
  const own = signal === "traces" ? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT : env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
  return own ?? (env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, "")}/v1/${signal}` : undefined);
}
