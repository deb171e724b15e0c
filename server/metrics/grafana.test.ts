import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { grafanaDashboard } from "./grafana.ts";
import { ENDPOINT_PANELS, panelsFor } from "./endpoint-panels.ts";
import { endpointQueries } from "./promql.ts";

const dash = grafanaDashboard({ endpointSlug: "chat", endpointName: "Chat", metrics: "vllm" });
const triton = grafanaDashboard({ endpointSlug: "detect", endpointName: "Detect", metrics: "triton" });

describe("Grafana export", () => {
  it("has one timeseries panel per endpoint-page panel, with the same titles and units", () => {
    expect(dash.panels).toHaveLength(panelsFor("vllm").length);
    expect(dash.panels.map((p) => p.title)).toEqual(expect.arrayContaining(["Latency", "Time to first token", "Time per output token", "Input and output tokens/s", "Batch fill (running / maximum batch)"]));
    expect(dash.panels.every((p) => p.type === "timeseries" && p.targets.length > 0)).toBe(true);
    expect(dash.panels.find((p) => p.id === 2)!.fieldConfig.defaults.unit).toBe("s");
  });
  it("gives a Triton endpoint Triton's panels beside the gateway's, and no vLLM ones", () => {
    const titles = triton.panels.map((p) => p.title);
    expect(titles).toEqual(expect.arrayContaining(["Latency", "Pending requests (Triton queue)", "Failed inferences by reason (Triton)"]));
    expect(titles).not.toContain("KV-cache usage");
    expect(dash.panels.map((p) => p.title)).not.toContain("Pending requests (Triton queue)");
  });
  it("builds its PromQL with the app's builders, the endpoint as a Grafana variable", () => {
    const latency = dash.panels.find((p) => p.title === "Latency")!;
    expect(grafanaDashboard({ endpointSlug: "chat", endpointName: "Chat", metrics: "vllm", locale: "tr" }).panels.map((p) => p.title)).toEqual(expect.arrayContaining(["Gecikme", "İlk token süresi"]));
    expect(latency.targets.map((t) => t.expr)).toEqual([0.5, 0.95, 0.99].map((q) => endpointQueries.latency("$endpoint", q, "$__rate_interval")));
    expect(dash.templating.list[0]).toMatchObject({ name: "endpoint", current: { value: "chat" } });
  });
  it("every expression is PromQL Prometheus parses (promtool, variables substituted as Grafana would)", () => {
    const exprs = [...dash.panels, ...triton.panels].flatMap((p) => p.targets.map((t) => t.expr.replaceAll("$endpoint", "chat").replaceAll("$__rate_interval", "1m")));
    expect(exprs.length).toBeGreaterThanOrEqual(ENDPOINT_PANELS.length);
    // promtool parses PromQL in rule files: check every expression as a recording rule.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kule-grafana-")), "exprs.yml");
    fs.writeFileSync(file, `groups:\n  - name: g\n    rules:\n${exprs.map((e, i) => `      - record: grafana:panel:${i}\n        expr: ${JSON.stringify(e)}\n`).join("")}`);
    const out = execFileSync("promtool", ["check", "rules", file], { encoding: "utf8" });
    expect(out).toContain(`SUCCESS: ${exprs.length} rules found`);
  });
  it("is plain JSON a download can carry", () => {
    expect(JSON.parse(JSON.stringify(dash))).toEqual(dash);
  });
});
