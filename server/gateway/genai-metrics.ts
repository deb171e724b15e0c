import { ValueType, type Attributes } from "@opentelemetry/api";
import type { MeterProvider, PushMetricExporter } from "@opentelemetry/sdk-metrics";
import { InPlaceHistogram, meterProvider } from "../telemetry/meter-provider.ts";
import type { OtlpProtocol } from "../telemetry/otlp-exporters.ts";
import type { GatewayCall } from "./call.ts";
import type { ReplicaConfig } from "./config.ts";
import { attemptErrorType, replicaAddress } from "./tracing.ts";

// Bucket boundaries the GenAI semantic conventions give each metric.
const DURATION = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const TTFT = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const TPOT = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5];

/**
 * The gateway's OpenTelemetry metrics under the GenAI semantic conventions. As a model server to
 * its callers: gen_ai.server.request.duration per inference call, and for streams
 * gen_ai.server.time_to_first_token and gen_ai.server.time_per_output_token. As a client of its
 * replicas: gen_ai.client.operation.duration per attempt, and gen_ai.client.token.usage of the
 * answered one. Each call records into in-place histograms (meter-provider.ts); export is in the
 * background, over OTLP/HTTP, where traces go; off unless an OTLP endpoint is configured.
 */
export class GenAiMetrics {
  readonly requestDuration = new InPlaceHistogram({ name: "gen_ai.server.request.duration", unit: "s", description: "Generative AI server request duration such as time-to-last byte or last output token.", boundaries: DURATION });
  readonly timeToFirstToken = new InPlaceHistogram({ name: "gen_ai.server.time_to_first_token", unit: "s", description: "Time to generate first token for successful responses.", boundaries: TTFT });
  readonly timePerOutputToken = new InPlaceHistogram({ name: "gen_ai.server.time_per_output_token", unit: "s", description: "Time per output token generated after the first token for successful responses.", boundaries: TPOT });
  readonly operationDuration = new InPlaceHistogram({ name: "gen_ai.client.operation.duration", unit: "s", description: "GenAI operation duration.", boundaries: DURATION });
  readonly tokenUsage = new InPlaceHistogram({ name: "gen_ai.client.token.usage", unit: "{token}", description: "Number of input and output tokens used.", boundaries: TOKENS, valueType: ValueType.INT });
  private provider: MeterProvider | null = null;

  /** Metrics to an OTLP/HTTP endpoint (`…/v1/metrics`), or to a given exporter (tests), every `intervalMs`. */
  static create(opts: { url?: string; protocol?: OtlpProtocol; exporter?: PushMetricExporter; serviceName: string; intervalMs: number }): GenAiMetrics {
    const m = new GenAiMetrics();
    m.provider = meterProvider({ ...opts, scope: "kule-gateway", histograms: [m.requestDuration, m.timeToFirstToken, m.timePerOutputToken, m.operationDuration, m.tokenUsage] });
    return m;
  }

  /** One inference call, when it ended (`call.operation` set): the server-side metrics. */
  call(call: GatewayCall, durationS: number) {
    const operation = call.operation!;
    const model = call.endpoint?.slug ?? "";
    const response = call.version ? `${model}@${call.version.label}` : "";
    const error = call.status >= 400 ? (call.errorClass ?? String(call.status)) : "";
    const key = `${operation}\0${model}\0${response}\0${error}`;
    // Attributes are built only for a series not seen yet: for a known one a call costs a lookup and a bucket count.
    if (!this.requestDuration.record(key, durationS)) this.requestDuration.start(key, genAiAttributes(operation, model, response, error), durationS);
    if (error || call.ttftMs === null) return;
    const ttftS = call.ttftMs / 1000;
    if (!this.timeToFirstToken.record(key, ttftS)) this.timeToFirstToken.start(key, genAiAttributes(operation, model, response, error), ttftS);
    if (call.completionTokens < 2) return;
    const tpot = (durationS - ttftS) / (call.completionTokens - 1);
    if (!this.timePerOutputToken.record(key, tpot)) this.timePerOutputToken.start(key, genAiAttributes(operation, model, response, error), tpot);
  }

  /** The tokens of a call a replica answered, as the gateway's client side counted them. */
  tokens(call: GatewayCall) {
    const replica = call.replica;
    if (call.status !== 200 || !replica || !call.endpoint || !call.operation) return;
    const model = call.endpoint.slug;
    const response = call.version ? `${model}@${call.version.label}` : "";
    const { address, port } = replicaAddress(replica.url);
    const key = `${call.operation}\0${model}\0${response}\0${address}\0${port}\0`;
    if (call.promptTokens) {
      if (!this.tokenUsage.record(key + "input", call.promptTokens)) this.tokenUsage.start(key + "input", tokenAttributes(call.operation, model, response, address, port, "input"), call.promptTokens);
    }
    if (call.completionTokens) {
      if (!this.tokenUsage.record(key + "output", call.completionTokens)) this.tokenUsage.start(key + "output", tokenAttributes(call.operation, model, response, address, port, "output"), call.completionTokens);
    }
  }

  /** One attempt at a replica (replica-attempts.ts). */
  attempt(call: GatewayCall, replica: ReplicaConfig, seconds: number, status: number, error?: string) {
    if (!call.operation) return;
    const model = call.endpoint!.slug;
    const errorType = attemptErrorType(status, error) ?? "";
    const { address, port } = replicaAddress(replica.url);
    const key = `${call.operation}\0${model}\0${address}\0${port}\0${errorType}`;
    if (!this.operationDuration.record(key, seconds)) this.operationDuration.start(key, { ...genAiAttributes(call.operation, model, "", errorType), "server.address": address, "server.port": port }, seconds);
  }

  async flush() {
    await this.provider?.forceFlush();
  }

  async shutdown() {
    await this.provider?.shutdown().catch(() => {});
  }
}

function genAiAttributes(operation: string, model: string, response: string, error: string): Attributes {
  const a: Attributes = { "gen_ai.operation.name": operation };
  if (model) a["gen_ai.request.model"] = model;
  if (response) a["gen_ai.response.model"] = response;
  if (error) a["error.type"] = error;
  return a;
}

function tokenAttributes(operation: string, model: string, response: string, address: string, port: number, type: "input" | "output"): Attributes {
  return { ...genAiAttributes(operation, model, response, ""), "server.address": address, "server.port": port, "gen_ai.token.type": type };
}
