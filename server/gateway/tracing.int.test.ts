import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { testDb, testDrivers } from "../test/harness.ts";
import { servedEndpoint, startTestGateway, tenantWithKey } from "../test/gateway-kit.ts";
import { startClusterSync } from "../cluster/sync.ts";
import { GatewayTracing } from "./tracing.ts";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; doubleValue?: number } }[];
}

/** An OTLP/HTTP receiver (JSON, as the exporter sends it): every span it was sent. */
async function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        for (const rs of JSON.parse(body).resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans, close: () => new Promise((r) => server.close(r)) };
}

const attr = (s: OtlpSpan, key: string) => {
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
    } finally {
      await gw.close();
      await receiver.close();
    }
  });

  it("trace a refusal too, with its error type, and start a trace of their own for a caller who sent none", async () => {
    const receiver = await otlpReceiver();
    const tracing = GatewayTracing.create({ url: receiver.url, serviceName: "kule-gateway-test", sampleRatio: 1 });
    const gw = await startTestGateway({ tracing });
    try {
      const res = await fetch(`${gw.base}/v1/embeddings`, { method: "POST", headers: { authorization: "Bearer kule_not_a_key_at_all_000000000000000000" }, body: JSON.stringify({ model: "embed", input: "x" }) });
      expect(res.status).toBe(401);
      const [, traceId] = res.headers.get("traceparent")!.split("-");
      await tracing.flush();
      const span = receiver.spans.find((s) => s.traceId === traceId)!;
      expect(span.parentSpanId ?? "").toBe("");
      expect(attr(span, "gen_ai.operation.name")).toBe("embeddings");
      expect(attr(span, "error.type")).toBe("auth");
    } finally {
      await gw.close();
      await receiver.close();
    }
  });
});
