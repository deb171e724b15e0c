import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { GatewayTracing } from "./tracing.ts";
import { GenAiMetrics } from "./genai-metrics.ts";
import { inferenceClient } from "../test/grpc-client.ts";
import { decodeMetrics, decodeTraces } from "../test/otlp-decode.ts";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; doubleValue?: number } }[];
}

interface OtlpHistogram {
  name: string;
  unit: string;
  histogram: { dataPoints: { attributes: OtlpSpan["attributes"]; count: string | number; sum: number }[] };
}

/** An OTLP/HTTP receiver (protobuf, the exporters' default, or JSON): every span and metric it was sent, and each request's content type. */
async function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const metrics: OtlpHistogram[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const type = req.headers["content-type"];
      contentTypes.add(String(type));
      const body = Buffer.concat(chunks);
      if (req.url === "/v1/traces") {
        for (const rs of decodeTraces(type, body).resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...((ss.spans ?? []) as unknown as OtlpSpan[]));
      }
      if (req.url === "/v1/metrics") {
        for (const rm of decodeMetrics(type, body).resourceMetrics ?? []) for (const sm of rm.scopeMetrics ?? []) metrics.push(...((sm.metrics ?? []) as unknown as OtlpHistogram[]));
      }
      res.writeHead(200, { "content-type": String(type) }).end(type === "application/json" ? "{}" : undefined);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/v1/traces`, metricsUrl: `${base}/v1/metrics`, spans, metrics, contentTypes, close: () => new Promise((r) => server.close(r)) };
}

const attr = (s: Pick<OtlpSpan, "attributes">, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.doubleValue);
};

let stopSync: () => void;
beforeAll(() => {
  stopSync = startClusterSync(testDb(), testDrivers());
});
afterAll(() => stopSync?.());

describe("OpenTelemetry traces of inference calls", () => {
  it("continue the caller's trace, name the GenAI operation, link the replica's span to the call's, and land in the call log", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const receiver = await otlpReceiver();
    const tracing = GatewayTracing.create({ url: receiver.url, serviceName: "kule-gateway-test", sampleRatio: 1 });
    const gw = await startTestGateway({ tracing });
    try {
      const [traceId, callerSpan] = [randomBytes(16).toString("hex"), randomBytes(8).toString("hex")];
      const res = await fetch(`${gw.base}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.secret}`, traceparent: `00-${traceId}-${callerSpan}-01` },
        body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "İzmir'de hava nasıl?" }], max_tokens: 16 }),
      });
      expect(res.status).toBe(200);
      const usage = (await res.json()).usage;
      expect(res.headers.get("traceparent")).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      await tracing.flush();

      const server = receiver.spans.find((s) => s.kind === 2 && s.traceId === traceId)!;
      expect(server).toMatchObject({ name: `chat ${ep.endpoint.slug}`, parentSpanId: callerSpan });
      expect(res.headers.get("traceparent")).toContain(server.spanId);
      expect(attr(server, "gen_ai.operation.name")).toBe("chat");
      expect(attr(server, "gen_ai.request.model")).toBe(ep.endpoint.slug);
      expect(attr(server, "gen_ai.usage.input_tokens")).toBe(usage.prompt_tokens);
      expect(attr(server, "gen_ai.usage.output_tokens")).toBe(usage.completion_tokens);
      expect(attr(server, "http.response.status_code")).toBe(200);
      const client = receiver.spans.find((s) => s.kind === 3 && s.traceId === traceId)!;
      expect(client).toMatchObject({ name: `chat ${ep.endpoint.slug}`, parentSpanId: server.spanId });
      expect(attr(client, "server.address")).toBe("127.0.0.1");
      expect(attr(client, "kule.replica")).toBe(ep.replicas[0]!.id);

      await gw.gateway.callLog.flush();
      const row = await testDb().callLog.findFirstOrThrow({ where: { tenantId: t.tenant.id } });
      expect(row.traceId).toBe(traceId);
      // OpenTelemetry's default encoding when OTEL_EXPORTER_OTLP_PROTOCOL is not set.
      expect([...receiver.contentTypes]).toEqual(["application/x-protobuf"]);
    } finally {
      await gw.close();
      await receiver.close();
    }
  });

  it("trace a refusal too, with its error type, and start a trace of their own for a caller who sent none (over OTLP/JSON)", async () => {
    const receiver = await otlpReceiver();
    const tracing = GatewayTracing.create({ url: receiver.url, protocol: "http/json", serviceName: "kule-gateway-test", sampleRatio: 1 });
    const genAi = GenAiMetrics.create({ url: receiver.metricsUrl, protocol: "http/json", serviceName: "kule-gateway-test", intervalMs: 60_000 });
    const gw = await startTestGateway({ tracing, genAi });
    try {
      const res = await fetch(`${gw.base}/v1/embeddings`, { method: "POST", headers: { authorization: "Bearer kule_not_a_key_at_all_000000000000000000" }, body: JSON.stringify({ model: "embed", input: "x" }) });
      expect(res.status).toBe(401);
      const [, traceId] = res.headers.get("traceparent")!.split("-");
      await tracing.flush();
      const span = receiver.spans.find((s) => s.traceId === traceId)!;
      expect(span.parentSpanId ?? "").toBe("");
      expect(attr(span, "gen_ai.operation.name")).toBe("embeddings");
      expect(attr(span, "error.type")).toBe("auth");
      await genAi.flush();
      const duration = receiver.metrics.find((m) => m.name === "gen_ai.server.request.duration")!;
      expect(duration.histogram.dataPoints.map((p) => [attr(p, "gen_ai.operation.name"), attr(p, "error.type"), Number(p.count)])).toEqual([["embeddings", "auth", 1]]);
      // It reached no replica: no client-side metrics.
      expect(receiver.metrics.map((m) => m.name)).not.toContain("gen_ai.client.operation.duration");
      expect([...receiver.contentTypes]).toEqual(["application/json"]);
    } finally {
      await gw.close();
      await receiver.close();
    }
  });

  it("report GenAI metrics over OTLP: the gateway's time per call and per replica attempt, tokens by type, and a stream's first token and time per token", async () => {
    const ep = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }]);
    const t = await tenantWithKey();
    const receiver = await otlpReceiver();
    const genAi = GenAiMetrics.create({ url: receiver.metricsUrl, serviceName: "kule-gateway-test", intervalMs: 60_000 });
    const gw = await startTestGateway({ genAi });
    try {
      const chat = (stream: boolean) =>
        fetch(`${gw.base}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.secret}` },
          body: JSON.stringify({ model: ep.endpoint.slug, messages: [{ role: "user", content: "Ankara'dan bir fıkra anlat." }], max_tokens: 16, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) }),
        });
      const whole = await chat(false);
      expect(whole.status).toBe(200);
      // No traces configured: metrics alone, and no traceparent on the answer.
      expect(whole.headers.get("traceparent")).toBeNull();
      const usage = (await whole.json()).usage;
      const streamed = await chat(true);
      const events = await streamed.text();
      const streamUsage = JSON.parse(events.split("\n\n").find((e) => e.includes('"usage":{'))!.slice("data: ".length)).usage;
      await genAi.flush();

      const metric = (name: string) => receiver.metrics.find((m) => m.name === name)!;
      const version = whole.headers.get("x-kule-version");
      const server = metric("gen_ai.server.request.duration");
      expect(server.unit).toBe("s");
      expect(server.histogram.dataPoints).toHaveLength(1);
      const [call] = server.histogram.dataPoints;
      expect(Number(call!.count)).toBe(2);
      expect([attr(call!, "gen_ai.operation.name"), attr(call!, "gen_ai.request.model"), attr(call!, "gen_ai.response.model"), attr(call!, "error.type")]).toEqual(["chat", ep.endpoint.slug, `${ep.endpoint.slug}@${version}`, undefined]);

      const attempt = metric("gen_ai.client.operation.duration");
      expect(attempt.unit).toBe("s");
      const [a] = attempt.histogram.dataPoints;
      expect(Number(a!.count)).toBe(2);
      expect([attr(a!, "gen_ai.operation.name"), attr(a!, "gen_ai.request.model"), attr(a!, "server.address")]).toEqual(["chat", ep.endpoint.slug, "127.0.0.1"]);
      expect(attr(a!, "server.port")).toBeGreaterThan(0);
      // The replica's share of a call is part of the call's time.
      expect(a!.sum).toBeLessThanOrEqual(call!.sum);

      const tokens = metric("gen_ai.client.token.usage");
      expect(tokens.unit).toBe("{token}");
      const byType = Object.fromEntries(tokens.histogram.dataPoints.map((p) => [attr(p, "gen_ai.token.type"), p.sum]));
      expect(byType).toEqual({ input: usage.prompt_tokens + streamUsage.prompt_tokens, output: usage.completion_tokens + streamUsage.completion_tokens });

      // Only the stream has a first token; time per output token needs two or more of them.
      const ttft = metric("gen_ai.server.time_to_first_token");
      expect([ttft.unit, Number(ttft.histogram.dataPoints[0]!.count)]).toEqual(["s", 1]);
      expect(ttft.histogram.dataPoints[0]!.sum).toBeLessThanOrEqual(call!.sum);
      const tpot = metric("gen_ai.server.time_per_output_token");
      expect([tpot.unit, Number(tpot.histogram.dataPoints[0]!.count)]).toEqual(["s", 1]);
    } finally {
      await gw.close();
      await receiver.close();
    }
  });

  it("trace a gRPC ModelInfer as `infer`, continuing the caller's traceparent, and count it in the GenAI metrics", async () => {
    const vision = await servedEndpoint("cpu", [{ weight: 100, device: { host: "cpu-1" } }], "vision");
    const t = await tenantWithKey();
    const receiver = await otlpReceiver();
    const tracing = GatewayTracing.create({ url: receiver.url, serviceName: "kule-gateway-test", sampleRatio: 1 });
    const genAi = GenAiMetrics.create({ url: receiver.metricsUrl, serviceName: "kule-gateway-test", intervalMs: 60_000 });
    const gw = await startTestGateway({ tracing, genAi, grpcPort: 0 });
    const client = inferenceClient(gw.gateway.grpcUrl!);
    try {
      const [traceId, callerSpan] = [randomBytes(16).toString("hex"), randomBytes(8).toString("hex")];
      const request = { model_name: vision.endpoint.slug, inputs: [{ name: "images", datatype: "UINT8", shape: [1, 2, 2], contents: { uint_contents: [1, 2, 3, 4] } }] };
      const answer = await client.call("ModelInfer", request, t.secret, { traceparent: `00-${traceId}-${callerSpan}-01` });
      expect(answer.error).toBeNull();
      expect(String(answer.headers!.get("traceparent")[0])).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      await tracing.flush();
      await genAi.flush();
      const server = receiver.spans.find((s) => s.kind === 2 && s.traceId === traceId)!;
      expect(server).toMatchObject({ name: `infer ${vision.endpoint.slug}`, parentSpanId: callerSpan });
      expect(receiver.spans.find((s) => s.kind === 3 && s.traceId === traceId)).toMatchObject({ parentSpanId: server.spanId });
      const duration = receiver.metrics.find((m) => m.name === "gen_ai.server.request.duration")!;
      expect(duration.histogram.dataPoints.map((p) => [attr(p, "gen_ai.operation.name"), attr(p, "gen_ai.request.model"), Number(p.count)])).toEqual([["infer", vision.endpoint.slug, 1]]);
    } finally {
      client.close();
      await gw.close();
      await receiver.close();
    }
  });
});
