/**
 * The cost pages at scale: 20 million call-log rows over 90 days for 50 tenants, written with
 * COPY, rolled up by the same job the app runs, then the tenant portal's 90-day query and the
 * admin's all-tenant ranking timed (p50 of 15 runs each). Writes bench/results/cost.json.
 * Target: both ≤ 300 ms at p50. BENCH_COST_ROWS overrides the row count for a quick look.
 */
import { execFileSync } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { rollupDirtyHours } from "../server/usage/rollup.ts";
import { refreshDirtyDays } from "../server/usage/daily.ts";
import { computeRecentCosts } from "../server/usage/cost.ts";
import { tenantRanking, tenantUsage } from "../server/usage/queries.ts";
import { streamFocus } from "../server/finops/focus-export.ts";
import { focusFileViolations } from "../server/finops/focus-file.ts";
import { median, writeResult } from "./lib.ts";

const ROWS = Number(process.env.BENCH_COST_ROWS ?? 20_000_000);
const TENANTS = 50;
const DAYS = 90;
const CHUNK = 500_000;

/** A small deterministic generator, so runs are comparable. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

async function fixture(c: pg.Client) {
  await c.query(`INSERT INTO "PricePlan" (id, name, "updatedAt") VALUES ('plan', 'Bench', now())`);
  await c.query(`INSERT INTO "PlanPrice" (id, "planId", "effectiveFrom", "inputPer1M", "outputPer1M", "perRequest") VALUES ('pp1', 'plan', '2020-01-01', 15, 45, 0.01), ('pp2', 'plan', now() - interval '30 days', 18.5, 52.25, 0.012)`);
  await c.query(`INSERT INTO "Model" (id, name, task, "updatedAt") VALUES ('m', 'bench-model', 'llm', now())`);
  await c.query(`INSERT INTO "ModelVersion" (id, "modelId", version, "artifactUri", format, precision, "parameterCount", "weightBytes", "minGpuMemoryBytes") VALUES ('mv1', 'm', '1.0', 's3://b/1', 'vllm', 'fp8', 1, 1, 1), ('mv2', 'm', '1.1', 's3://b/2', 'vllm', 'fp8', 1, 1, 1)`);
  await c.query(`INSERT INTO "Cluster" (id, name) VALUES ('c', 'bench')`);
  await c.query(`INSERT INTO "NodePool" (id, "clusterId", name, region) VALUES ('p', 'c', 'bench', 'tr-ist')`);
  for (let e = 0; e < 3; e++) {
    await c.query(`INSERT INTO "Endpoint" (id, name, slug, "modelId", engine, "nodePoolId", "sloAvailabilityPct", "sloP99LatencyMs", "updatedAt") VALUES ($1, $2, $3, 'm', 'vllm', 'p', 99.9, 2000, now())`, [`e${e}`, `Endpoint ${e}`, `e${e}`]);
    await c.query(`INSERT INTO "EndpointVersion" (id, "endpointId", "modelVersionId", weight, state, "updatedAt") VALUES ($1, $2, 'mv1', 80, 'ready', now()), ($3, $2, 'mv2', 20, 'ready', now())`, [`e${e}v1`, `e${e}`, `e${e}v2`]);
  }
  for (let t = 0; t < TENANTS; t++) {
    await c.query(`INSERT INTO "Tenant" (id, name, slug, "pricePlanId", "updatedAt") VALUES ($1, $2, $3, 'plan', now())`, [`t${t}`, `Tenant ${t}`, `t${t}`]);
    for (let k = 0; k < 2; k++) await c.query(`INSERT INTO "ApiKey" (id, "tenantId", name, prefix, "secretHash") VALUES ($1, $2, 'k', $1, $1)`, [`t${t}k${k}`, `t${t}`]);
  }
}

function* lines(n: number, offset: number, now: number) {
  const r = rng(offset + 1);
  const span = DAYS * 86_400_000;
  for (let i = 0; i < n; i++) {
    // Tenants are not equal: a few big ones, many small (squared draw).
    const t = Math.floor(r() * r() * TENANTS);
    const e = Math.floor(r() * 3);
    // In time order, as a gateway writes them: the time-led indexes grow at their end.
    const started = new Date(now - span + ((offset + i + r()) / ROWS) * span);
    const latency = 40 + Math.floor(r() * r() * 3000);
    const status = r() < 0.01 ? 503 : 200;
    const prompt = 20 + Math.floor(r() * 800);
    const completion = e === 1 ? 0 : Math.floor(r() * 400);
    yield `${offset + i}\tt${t}\tt${t}k${i & 1}\te${e}\te${e}v${r() < 0.8 ? 1 : 2}\t${started.toISOString()}\t${new Date(started.getTime() + latency).toISOString()}\t${status}\t${prompt}\t${completion}\t${Math.floor(latency / 4)}\ttr-ist\n`;
  }
}

/**
 * The admin's FOCUS 1.2 export of every tenant over the data set's months, in a process of its own
 * (bench/focus-export-child.ts: its peak RSS is the export's), then the CSV checked against the
 * FOCUS 1.2 column rules.
 */
async function focusExport(url: string, now: number) {
  const month = (t: number) => new Date(t).toISOString().slice(0, 7);
  const scope = { tenantId: null, from: month(now - DAYS * 86_400_000), to: month(now) };
  const child = JSON.parse(execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "bench/focus-export-child.ts", url, JSON.stringify(scope)], { encoding: "utf8", maxBuffer: 1 << 20 }).trim().split("\n").pop()!) as { rows: number; rows_per_second: number; peak_rss_mb: number; csv_seconds: number; jsonl_seconds: number };
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const chunks: Buffer[] = [];
  try {
    await streamFocus(pool, { ...scope, format: "csv" }, new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c), done()) }));
  } finally {
    await pool.end();
  }
  const violations = focusFileViolations(Buffer.concat(chunks).toString("utf8"), "csv").length;
  console.log(`FOCUS export: ${JSON.stringify(child)}, ${violations} violations`);
  return {
    focus_export_rows: child.rows,
    focus_export_csv_seconds: child.csv_seconds,
    focus_export_jsonl_seconds: child.jsonl_seconds,
    focus_export_rows_per_second: child.rows_per_second,
    focus_export_peak_rss_mb: child.peak_rss_mb,
    focus_export_violations: violations,
    focus_target_rows_per_second: 50_000,
    focus_target_peak_rss_mb: 300,
  };
}

export async function benchCost() {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_bench_cost");
  const db = createDb(url);
  const c = new pg.Client({ connectionString: url });
  try {
    await deployMigrations(url);
    await c.connect();
    await fixture(c);
    // The explorer's indexes serve the audit pages, not this benchmark: load without them (the
    // roll-up reads by "startedAt", which stays), as a bulk load would.
    for (const ix of ["tenantId_startedAt", "apiKeyId_startedAt", "endpointId_startedAt", "endpointVersionId_startedAt", "clientIp_startedAt", "status_startedAt", "userHash"]) {
      await c.query(`DROP INDEX IF EXISTS "CallLog_${ix}_idx"`);
    }
    const now = Date.now();
    const t0 = performance.now();
    for (let off = 0; off < ROWS; off += CHUNK) {
      const n = Math.min(CHUNK, ROWS - off);
      // Chunks of text, not one string per row, keep the stream cheap.
      const chunks = (function* () {
        let buf = "";
        for (const l of lines(n, off, now)) {
          buf += l;
          if (buf.length > 1 << 20) {
            yield buf;
            buf = "";
          }
        }
        if (buf) yield buf;
      })();
      await pipeline(Readable.from(chunks), c.query(copyFrom(`COPY "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "startedAt", "endedAt", status, "promptTokens", "completionTokens", "ttftMs", region) FROM STDIN`)));
      process.stdout.write(`\rcall log: ${(off + n).toLocaleString()} rows`);
    }
    const generateSeconds = (performance.now() - t0) / 1000;
    console.log(` in ${generateSeconds.toFixed(0)} s`);
    await c.query(`VACUUM ANALYZE "CallLog"`);

    const r0 = performance.now();
    const rolled = await rollupDirtyHours(db, { maxHours: 100_000 });
    const rollupSeconds = (performance.now() - r0) / 1000;
    console.log(`hourly roll-up: ${rolled.hours} hours, ${rolled.rows} rows in ${rollupSeconds.toFixed(1)} s`);
    // Then what the worker does next: the hours' running cost and the daily roll-ups.
    const d0 = performance.now();
    await computeRecentCosts(db, Date.now(), DAYS * 24);
    const days = await refreshDirtyDays(db);
    const dailySeconds = (performance.now() - d0) / 1000;
    await c.query(`VACUUM ANALYZE "UsageHour"`);
    await c.query(`VACUUM ANALYZE "UsageDay"`);
    console.log(`costs and daily roll-up: ${days} days in ${dailySeconds.toFixed(1)} s`);

    const ctx = { db, ip: null, actor: { userId: "bench", email: "bench@kule.local", name: "Bench", role: "tenant" as const, tenantId: "t0" } };
    const time = async (fn: () => Promise<unknown>) => {
      await fn(); // warm
      const xs: number[] = [];
      for (let i = 0; i < 15; i++) {
        const s = performance.now();
        await fn();
        xs.push(performance.now() - s);
      }
      return +median(xs).toFixed(1);
    };
    const tenantMs = await time(() => tenantUsage(ctx, { days: 90, by: "endpoint" }));
    const rankingMs = await time(() => tenantRanking(ctx, { days: 90 }));
    const focus = await focusExport(url, now);
    writeResult("cost", {
      call_log_rows: ROWS,
      tenants: TENANTS,
      days: DAYS,
      usage_hour_rows: rolled.rows,
      generate_seconds: +generateSeconds.toFixed(1),
      rollup_seconds: +rollupSeconds.toFixed(1),
      rollup_rows_per_second: Math.round(ROWS / rollupSeconds),
      daily_rollup_seconds: +dailySeconds.toFixed(1),
      tenant_cost_90d_ms_p50: tenantMs,
      admin_ranking_90d_ms_p50: rankingMs,
      target_ms_p50: 300,
      ...focus,
      note: "FOCUS: every tenant's billing months over the whole data set, streamed as the download is by a process of its own (CSV and JSONL, the slower counted; RSS that process's peak), the CSV then checked against the FOCUS 1.2 column rules. Rows loaded with COPY in time order, the explorer's secondary indexes dropped for the load. The biggest tenant (t0) for the portal query; all 50 tenants for the ranking. Both read the daily roll-ups (hourly for ranges up to a week), never the raw rows; rollup_rows_per_second is call-log rows rolled into hours per second.",
    });
  } finally {
    await c.end().catch(() => {});
    await db.$disconnect();
    await dropDatabase(url).catch(() => {});
    await server.stop();
  }
}
