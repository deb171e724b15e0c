/**
 * Overload (issue 37): one endpoint with one replica (a 30B model on an H100, bench/routing-sim.ts,
 * latency model on), two well-behaved tenants sending interactive calls at their fair share each
 * and one noisy tenant sending batch calls at 7× its share, together 3× what the replica serves.
 * First-come (the gateway's overload queue off: every call waits in the engine's own queue) and
 * Kule's policy, each on a fresh replica, with the very same calls. Then two salted tenants with
 * one prompt: the second's prefix-cache hits on the first's blocks (`salted_cross_tenant_hits`).
 */
import pg from "pg";
import type { ChildProcess } from "node:child_process";
import { startProcess, writeResult } from "./lib.ts";
import { writeRoutingFixture } from "./routing-fixture.ts";
import { apiKeyRecord } from "../server/auth/api-key-secret.ts";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { capacityOf, jainIndex, percentile, playLoad, streamCall, type CallResult, type TenantLoad } from "./overload-workload.ts";
import { startSim, stopChild, simMetric } from "./sim-process.ts";

const SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 30);
const TTFT_SLO_MS = 1500;
/** The noisy tenant's client gives up after this long (x-stainless-timeout), which is its calls' deadline. */
const BATCH_TIMEOUT_S = 10;
const MAX_TOKENS = 48;
const OFFERED_X_CAPACITY = 3;
const BELOW_SECONDS = 15;
const TENANTS = ["quiet-a", "quiet-b", "noisy"] as const;
const secretOf = (t: string) => `kule_${t.replace(/-/g, "")}_${"x".repeat(32)}`;
const words = "the cluster serves models across nodes and each replica answers requests while the gateway routes traffic".split(" ");
/** ~300 tokens of prompt, distinct per call (no prefix cache shortcut in the comparison). */
const prompt = (tenant: string, i: number) => `${tenant} call ${i}: ` + Array.from({ length: 300 }, (_, k) => words[(k * 7 + i) % words.length]).join(" ");

async function addTenants(databaseUrl: string) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(`UPDATE "Endpoint" SET "sloTtftMs" = $1 WHERE id = 'e-chat'`, [TTFT_SLO_MS]);
    // The quiet tenants' plan is interactive; the noisy one's (standard) key puts its jobs in the batch class.
    await c.query(`INSERT INTO "PricePlan" (id, name, priority, "updatedAt") VALUES ('pp-interactive', 'interactive', 'interactive', now())`);
    const keys: [string, string | null, boolean | null, string | null][] = [["quiet-a", null, null, "pp-interactive"], ["quiet-b", null, null, "pp-interactive"], ["noisy", "batch", null, null], ["salt-a", null, true, null], ["salt-b", null, true, null]];
    for (const [t, priority, salted, plan] of keys) {
      const key = apiKeyRecord(secretOf(t));
      await c.query(`INSERT INTO "Tenant" (id, name, slug, "privatePrefixCache", "pricePlanId", "updatedAt") VALUES ($1, $1, $1, $2, $3, now())`, [`t-${t}`, salted, plan]);
      await c.query(`INSERT INTO "ApiKey" (id, "tenantId", name, prefix, "secretHash", priority) VALUES ($1, $2, 'bench', $3, $4, $5::"PriorityClass")`, [`k-${t}`, `t-${t}`, key.prefix, key.hash, priority]);
    }
  } finally {
    await c.end();
  }
}

function figuresOf(results: CallResult[], loads: TenantLoad[], shed: { tenant: string; reason: string; n: number }[]) {
  const perTenant: Record<string, unknown> = {};
  const served: number[] = [];
  const asked: number[] = [];
  for (const t of loads) {
    const mine = results.filter((r) => r.tenant === t.name);
    const ok = mine.filter((r) => r.status === 200 && r.ttftMs !== null);
    const good = ok.filter((r) => r.ttftMs! <= t.deadlineMs);
    served.push(ok.reduce((s, r) => s + r.tokens, 0));
    asked.push(mine.length * MAX_TOKENS);
    perTenant[t.name] = {
      calls: mine.length,
      served: ok.length,
      ttft_p99_ms: +percentile(ok.map((r) => r.ttftMs!), 99).toFixed(0),
      goodput_tokens_per_s: +(good.reduce((s, r) => s + r.tokens, 0) / SECONDS).toFixed(1),
      refused_with_retry_after: mine.filter((r) => (r.status === 429 || r.status === 503) && r.retryAfter !== null).length,
    };
  }
  const interactive = results.filter((r) => r.tenant !== "noisy" && r.status === 200 && r.ttftMs !== null).map((r) => r.ttftMs!);
  const deadlineOf = new Map(loads.map((t) => [t.name, t.deadlineMs]));
  return {
    interactive_ttft_p99_ms: +percentile(interactive, 99).toFixed(0),
    tenants: perTenant,
    jain_index: +jainIndex(served, asked, [1, 1, 1]).toFixed(3),
    shed_by_reason: Object.fromEntries(shed.map((s) => [`${s.tenant}:${s.reason}`, s.n])),
    // Neither a first token nor a refusal within the call's deadline and a second's grace.
    hanging_requests: results.filter((r) => r.ttftMs === null || r.ttftMs > deadlineOf.get(r.tenant)! + 1000).length,
    failed_requests: results.filter((r) => r.status !== 200 && r.status !== 429 && r.status !== 503).length,
  };
}

async function policyRun(db: pg.Pool, databaseUrl: string, policy: "fifo" | "kule", capacity: number | null) {
  const sim = await startSim(["r0"]);
  let gateway: ChildProcess | null = null;
  try {
    await db.query(`UPDATE "Replica" SET url = $1, "updatedAt" = now() WHERE id = 'r0'`, [sim.urls.r0]);
    const gw = await startProcess<{ url: string }>("bench/gateway-server.ts", { BENCH_DATABASE_URL: databaseUrl, BENCH_OVERLOAD: policy });
    gateway = gw.child;
    const load = (t: string, perSecond: number): TenantLoad => ({ name: t, secret: secretOf(t), perSecond, deadlineMs: t === "noisy" ? BATCH_TIMEOUT_S * 1000 : TTFT_SLO_MS, clientTimeoutS: t === "noisy" ? BATCH_TIMEOUT_S : undefined });
    // The replica's capacity, kept full by 64 callers (twice its batch), measured once on the first fresh replica.
    const perSecond = capacity ?? (await capacityOf(gw.info.url, load("quiet-a", 1), 64, 10, (i) => prompt("warm", i), MAX_TOKENS));
    const fair = perSecond / TENANTS.length;
    const loads = [load("quiet-a", fair), load("quiet-b", fair), load("noisy", OFFERED_X_CAPACITY * perSecond - 2 * fair)];
    console.log(`overload: ${policy}, capacity ${perSecond.toFixed(1)} calls/s, offered ${(OFFERED_X_CAPACITY * perSecond).toFixed(1)}`);
    await db.query(`DELETE FROM "CallLog"`);
    const results = await playLoad(gw.info.url, loads, SECONDS, prompt, MAX_TOKENS);
    await new Promise((r) => setTimeout(r, 1500)); // the call log's last rows
    const shed = await db.query<{ tenant: string; reason: string; n: number }>(`SELECT substr("tenantId", 3) AS tenant, "errorClass" AS reason, count(*)::int AS n FROM "CallLog" WHERE "errorClass" LIKE 'shed_%' GROUP BY 1, 2 ORDER BY 1, 2`);
    const figures = figuresOf(results, loads, shed.rows);
    console.log(policy, JSON.stringify(figures));
    let salted = null;
    let below = null;
    if (policy === "kule") {
      // Below capacity (0.8×, each tenant at its share): nothing may be refused or fail.
      await new Promise((r) => setTimeout(r, 5000));
      const calm = await playLoad(gw.info.url, loads.map((t) => ({ ...t, perSecond: (0.8 * perSecond) / TENANTS.length })), BELOW_SECONDS, prompt, MAX_TOKENS, 11);
      below = { calls: calm.length, not_served: calm.filter((r) => r.status !== 200).length, interactive_ttft_p99_ms: +percentile(calm.filter((r) => r.tenant !== "noisy" && r.ttftMs !== null).map((r) => r.ttftMs!), 99).toFixed(0) };
      console.log("below capacity", JSON.stringify(below));
      // One call each, with the same long prompt: the second tenant's hits on the first's blocks.
      const shared = "one shared system prompt for every tenant ".repeat(40);
      const once = async (t: string) => {
        if ((await streamCall(gw.info.url, load(t, 1), shared, 4, 10_000)).status !== 200) throw new Error(`overload: ${t}'s salted call failed`);
      };
      await once("salt-a");
      const before = await simMetric(sim.urls.r0!, "vllm:prefix_cache_hits_total");
      await once("salt-b");
      salted = (await simMetric(sim.urls.r0!, "vllm:prefix_cache_hits_total")) - before;
    }
    return { capacity: perSecond, figures, salted, below };
  } finally {
    if (gateway) await stopChild(gateway);
    await stopChild(sim.child);
  }
}

export async function benchOverload() {
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_bench");
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    await deployMigrations(databaseUrl);
    await writeRoutingFixture(databaseUrl, ["r0"]);
    await addTenants(databaseUrl);
    const fifo = await policyRun(db, databaseUrl, "fifo", null);
    const kule = await policyRun(db, databaseUrl, "kule", fifo.capacity);
    writeResult("overload", {
      workload: `${SECONDS} s of streamed chat calls (~300 prompt tokens, ${MAX_TOKENS} out) on one replica of a 30B bf16 model on an H100; quiet-a and quiet-b interactive at a third of its capacity each, noisy batch at ${OFFERED_X_CAPACITY * 3 - 2}× a third; ${OFFERED_X_CAPACITY}× its capacity in all`,
      capacity_calls_per_second: +fifo.capacity.toFixed(1),
      offered_x_capacity: OFFERED_X_CAPACITY,
      ttft_slo_ms: TTFT_SLO_MS,
      batch_deadline_ms: BATCH_TIMEOUT_S * 1000,
      kule: kule.figures,
      fifo: fifo.figures,
      salted_cross_tenant_hits: kule.salted,
      kule_below_capacity: kule.below,
      interactive_within_slo: { kule: kule.figures.interactive_ttft_p99_ms <= TTFT_SLO_MS, fifo: fifo.figures.interactive_ttft_p99_ms <= TTFT_SLO_MS },
    });
  } finally {
    await db.end();
    await dropDatabase(databaseUrl).catch(() => {});
  }
}
