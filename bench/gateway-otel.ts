/**
 * `npm run bench gateway-otel`: only the tracing figure of the gateway bench (bench/gateway.ts),
 * for when that is what changed: a one-process gateway untraced and one tracing every call
 * (exporting spans and GenAI metrics to the OTLP sink, as there), the same evenly spaced load in
 * alternating rounds (the order flipped every round, so a drift of the host falls on both), and
 * the ratio of their medians of CPU per request. It rewrites the otel_* figures of
 * bench/results/gateway.json and leaves the rest as the last full run wrote it.
 */
import fs from "node:fs";
import path from "node:path";
import { cpuMeter, median, startProcess } from "./lib.ts";
import { BENCH_KEY, writeGatewayFixture } from "./gateway-fixture.ts";
import { OTEL_PROTOCOL, RATE, ROUNDS, SECONDS, evenRate, startGateway } from "./gateway.ts";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { deployMigrations } from "../scripts/migrate.ts";

export async function benchGatewayOtel() {
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_bench_otel");
  const upstream = await startProcess<{ url: string; visionUrl: string }>("bench/sim-server.ts");
  const sink = await startProcess<{ url: string }>("bench/otlp-sink.ts");
  const stops: (() => void)[] = [() => upstream.child.kill("SIGTERM"), () => sink.child.kill("SIGTERM")];
  try {
    await deployMigrations(databaseUrl);
    await writeGatewayFixture(databaseUrl, upstream.info.url, upstream.info.visionUrl);
    const untraced = await startGateway(databaseUrl, {});
    stops.push(untraced.stop);
    const traced = await startGateway(databaseUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.info.url, OTEL_EXPORTER_OTLP_PROTOCOL: OTEL_PROTOCOL, KULE_OTEL_SAMPLE_RATIO: "1", OTEL_METRIC_EXPORT_INTERVAL: "5000" });
    stops.push(traced.stop);
    const targets = [
      { name: "untraced", ...untraced },
      { name: "traced", ...traced },
    ];
    const auth = { authorization: `Bearer ${BENCH_KEY}` };
    for (const t of targets) evenRate(`${t.url}/v1/chat/completions`, auth); // warm-up
    const cpu: Record<string, number[]> = { untraced: [], traced: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of round % 2 ? [...targets].reverse() : targets) {
        const meter = cpuMeter({ target: { root: t.pid } });
        const before = meter.read();
        const r = evenRate(`${t.url}/v1/chat/completions`, auth);
        const ms = +((meter.since(before).target! * 1000) / r.requests).toFixed(3);
        cpu[t.name]!.push(ms);
        console.log(`otel round ${round + 1} ${t.name}: CPU ${ms} ms/request, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`);
      }
    }
    const counts = (await (await fetch(`${sink.info.url}/counts`)).json()) as { spans: number; metricPoints: number };
    const [off, on] = [median(cpu.untraced!), median(cpu.traced!)];
    const file = path.join("bench", "results", "gateway.json");
    const result = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    Object.assign(result, {
      otel_cpu_ratio: +(on / off).toFixed(2),
      otel_spans_received: counts.spans,
      otel_metric_points_received: counts.metricPoints,
      otel_run: {
        measured_at: new Date().toISOString(),
        rounds: ROUNDS,
        seconds_per_round: SECONDS,
        rps: RATE,
        untraced_cpu_ms_per_request: off,
        traced_cpu_ms_per_request: on,
        untraced_cpu_ms_rounds: cpu.untraced,
        traced_cpu_ms_rounds: cpu.traced,
        note: "From `npm run bench gateway-otel` (bench/gateway-otel.ts), later than the rest of this file: a one-process gateway untraced against one tracing every call (sample ratio 1, spans and GenAI metrics over OTLP http/protobuf to the sink), alternating rounds with the order flipped each round; otel_cpu_ratio is the ratio of their medians of CPU per request.",
      },
    });
    fs.writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
    console.log(`${file}: otel_cpu_ratio ${(on / off).toFixed(2)} (${on} against ${off} ms CPU per request)`);
  } finally {
    for (const stop of stops) stop();
    await new Promise((r) => setTimeout(r, 500));
    await dropDatabase(databaseUrl).catch(() => {});
    await server.stop();
  }
}
