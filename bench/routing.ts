/**
 * Routing (issue 23): mean and p99 TTFT and the prefix-cache hit rate of one version's 4 replicas
 * under a chat workload that shares prefixes (bench/routing-workload.ts), for three ways of
 * choosing a replica — round robin (the bench calling the replicas in turn, no gateway), and the
 * gateway's least outstanding and prefix-aware — on the simulator with its latency model on
 * (bench/routing-sim.ts). Each policy gets fresh replicas (cold caches) and the very same calls.
 * Then fallbacks: calls to an endpoint whose only replica is SIGKILLed mid-run, with a fallback
 * endpoint; `fallback_failed_requests` counts calls the client saw fail.
 */
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { cpuMeter, startProcess, writeResult } from "./lib.ts";
import { BENCH_KEY } from "./gateway-fixture.ts";
import { conversations, MEAN_TURNS, percentile, play, streamChat, systemPrompts } from "./routing-workload.ts";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { writeRoutingFixture } from "./routing-fixture.ts";
import { simMetric as metric, startSim, stopChild as stop } from "./sim-process.ts";

const REPLICAS = ["r0", "r1", "r2", "r3"];
const SECONDS = Number(process.env.BENCH_ROUTING_SECONDS ?? 60);
/** Chat answers of a paragraph: each call holds its KV blocks for ~1.5 s of decoding, as chat calls do. */
const MAX_TOKENS = 96;
/**
 * About 70% of the replicas' KV cache in use (the issue's load) when calls are spread without
 * regard to prefixes: a replica holds ~35k tokens, ~10 sequences of ~2.5k tokens; a call lasts
 * ~1.6 s (96 tokens at ~15 ms with ~10 in the batch, plus prefill), so 4 × 10 / 1.6 ≈ 25 calls/s
 * by arithmetic — measured, least outstanding held 0.55 of the cache at 25 calls/s and 0.64 at 30
 * (shared prompt blocks count once, as in vLLM), 0.60 at 33 and 0.73 at 38, so 38. Prefix-aware serves the same calls with
 * less of it (each replica's running calls share fewer, longer prefixes); each policy's mean is
 * in the results.
 */
const CALLS_PER_SECOND = Number(process.env.BENCH_ROUTING_RATE ?? 38);
/**
 * A conversation lasts ~15 s (5.5 turns of ~1.6 s plus ~1 s of thinking), so the load builds up
 * over the first 15 s; KV-cache usage is averaged from then until the last conversation starts.
 */
const RAMP_SECONDS = 15;
const POLICIES = ["round_robin", "least_outstanding", "prefix_aware"] as const;
/** A subset for tuning runs (comma-separated); the committed figures come from all three. */
const RUN_POLICIES = process.env.BENCH_ROUTING_POLICIES?.split(",") ?? [...POLICIES];
const auth = { authorization: `Bearer ${BENCH_KEY}` };

/** Points the replicas' rows at a fresh simulator; the gateway reloads on the NOTIFY. */
async function repoint(db: pg.Pool, urls: Record<string, string>) {
  for (const [id, url] of Object.entries(urls)) await db.query(`UPDATE "Replica" SET url = $2, "updatedAt" = now() WHERE id = $1`, [id, url]);
  await new Promise((r) => setTimeout(r, 500));
}


async function policyRun(db: pg.Pool, gatewayUrl: string, gatewayPid: number, policy: "round_robin" | "least_outstanding" | "prefix_aware") {
  const sim = await startSim(REPLICAS);
  console.log(`routing: ${policy} on fresh replicas`);
  try {
    await repoint(db, sim.urls);
    if (policy !== "round_robin") await db.query(`UPDATE "Endpoint" SET "replicaChoice" = $1, revision = revision + 1 WHERE id = 'e-chat'`, [policy]);
    await new Promise((r) => setTimeout(r, 500));
    const urls = REPLICAS.map((id) => sim.urls[id]!);
    let next = 0;
    const meter = cpuMeter({ gateway: { root: gatewayPid } });
    const before = meter.read();
    // The replicas' load while the calls arrive: mean KV-cache usage and sequences waiting, sampled each second.
    const kv: number[] = [];
    const waiting: number[] = [];
    const t0 = performance.now();
    const sampler = setInterval(() => {
      const at = (performance.now() - t0) / 1000;
      if (at < RAMP_SECONDS || at > SECONDS) return;
      void Promise.all(urls.map((u) => Promise.all([metric(u, "vllm:kv_cache_usage_perc"), metric(u, "vllm:num_requests_waiting")]))).then((xs) => {
        kv.push(xs.reduce((s, x) => s + x[0], 0) / xs.length);
        waiting.push(xs.reduce((s, x) => s + x[1], 0));
      });
    }, 1000);
    const { ttfts, failed } = await play(conversations(CALLS_PER_SECOND / MEAN_TURNS, SECONDS), systemPrompts(), (messages) =>
      policy === "round_robin"
        ? streamChat(`${urls[next++ % urls.length]}/v1/chat/completions`, {}, "chat", messages, MAX_TOKENS)
        : streamChat(`${gatewayUrl}/v1/chat/completions`, auth, "chat", messages, MAX_TOKENS),
    );
    clearInterval(sampler);
    const gatewayCpu = meter.since(before).gateway!;
    const avg = (xs: number[]) => +(xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)).toFixed(2);
    let hits = 0;
    let queries = 0;
    for (const u of urls) {
      hits += await metric(u, "vllm:prefix_cache_hits_total");
      queries += await metric(u, "vllm:prefix_cache_queries_total");
    }
    const mean = ttfts.reduce((s, x) => s + x, 0) / ttfts.length;
    const figures = {
      calls: ttfts.length + failed,
      failed,
      ttft_mean_ms: +mean.toFixed(1),
      ttft_p50_ms: +percentile(ttfts, 50).toFixed(1),
      ttft_p99_ms: +percentile(ttfts, 99).toFixed(1),
      prefix_hit_rate: +(hits / queries).toFixed(3),
      kv_cache_usage_mean: avg(kv),
      waiting_mean: avg(waiting),
      ...(policy === "round_robin" ? {} : { gateway_cpu_ms_per_call: +((gatewayCpu * 1000) / (ttfts.length + failed)).toFixed(3) }),
    };
    console.log(policy, JSON.stringify(figures));
    return figures;
  } finally {
    await stop(sim.child);
  }
}

/** Non-stream calls at 20/s to `chat-primary` for 10 s; its only replica is SIGKILLed at 3 s. */
async function fallbackRun(db: pg.Pool, gatewayUrl: string) {
  const [primary, backup] = [await startSim(["r-primary"], "chat-primary"), await startSim(["r-backup"], "chat-backup")];
  try {
    await repoint(db, { ...primary.urls, ...backup.urls });
    const prompts = systemPrompts();
    const calls: Promise<number>[] = [];
    const t0 = performance.now();
    setTimeout(() => primary.child.kill("SIGKILL"), 3000);
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, Math.max(0, t0 + i * 50 - performance.now())));
      const body = JSON.stringify({ model: "chat-primary", messages: [{ role: "system", content: prompts[i % 20]!.slice(0, 2000) }, { role: "user", content: `question ${i}` }], max_tokens: 8 });
      calls.push(fetch(`${gatewayUrl}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", ...auth }, body }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0));
    }
    const statuses = await Promise.all(calls);
    const served = await db.query<{ n: string; chained: string }>(`SELECT count(*) AS n, count("fallbackChain") AS chained FROM "CallLog" WHERE "endpointId" = 'e-backup'`);
    return { fallback_calls: statuses.length, fallback_failed_requests: statuses.filter((s) => s !== 200).length, fallback_served_by_backup: Number(served.rows[0]!.n), fallback_chain_logged: Number(served.rows[0]!.chained) };
  } finally {
    await Promise.all([stop(primary.child), stop(backup.child)]);
  }
}

export async function benchRouting() {
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_bench");
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let gateway: ChildProcess | null = null;
  try {
    await deployMigrations(databaseUrl);
    await writeRoutingFixture(databaseUrl, REPLICAS);
    const gw = await startProcess<{ url: string }>("bench/gateway-server.ts", { BENCH_DATABASE_URL: databaseUrl });
    gateway = gw.child;
    const figures: Record<string, unknown> = {};
    for (const policy of POLICIES) if (RUN_POLICIES.includes(policy)) figures[policy] = await policyRun(db, gw.info.url, gw.child.pid!, policy);
    if (!figures.least_outstanding || !figures.prefix_aware) return console.log(JSON.stringify(figures));
    const lo = figures.least_outstanding as { ttft_mean_ms: number; ttft_p99_ms: number; kv_cache_usage_mean: number };
    const pa = figures.prefix_aware as { ttft_mean_ms: number; ttft_p99_ms: number };
    Object.assign(figures, await fallbackRun(db, gw.info.url));
    writeResult("routing", {
      workload: `${SECONDS} s of chat conversations at ~${CALLS_PER_SECOND} calls/s (20 system prompts of 1-3k tokens, 3-8 turns, ${MAX_TOKENS} tokens out) on 4 replicas of a 30B bf16 model, H100 80 GB each (KV cache ~35k tokens)`,
      // The load level: the offered rate, and the share of KV cache it fills when calls go by load alone.
      load: { calls_per_second: CALLS_PER_SECOND, kv_cache_usage_target: 0.7, kv_cache_usage_least_outstanding: lo.kv_cache_usage_mean },
      ...figures,
      prefix_aware_mean_ttft_ratio: +(pa.ttft_mean_ms / lo.ttft_mean_ms).toFixed(3),
      target_mean_ttft_ratio: 0.5,
      prefix_aware_p99_no_worse: pa.ttft_p99_ms <= lo.ttft_p99_ms,
    });
  } finally {
    if (gateway) await stop(gateway);
    await db.end();
    await dropDatabase(databaseUrl).catch(() => {});
  }
}

