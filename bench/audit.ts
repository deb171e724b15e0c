/**
 * Audit and KVKK at scale (issue 8). A scratch database gets KULE_BENCH_AUDIT_ROWS call-log rows
 * (default 20 million) over 30 days and 40 tenants, generated inside PostgreSQL with
 * INSERT … SELECT generate_series into the partitioned table with its secondary indexes dropped,
 * which are then rebuilt (loading through the indexes is several times slower; the generation
 * time is reported). Then:
 *  - explorer: a filtered page (one tenant, one day, 50 rows, through listCalls with its audit
 *    event) — p50 over 30 different tenant/day pairs;
 *  - export: a CSV of KULE_BENCH_AUDIT_EXPORT_ROWS (default half the log, at most 10 million)
 *    streamed by a separate process, whose own peak RSS is reported;
 *  - seal, then verify: the whole chain checked end to end.
 */
import { execFileSync } from "node:child_process";
import pg from "pg";
import { median, writeResult } from "./lib.ts";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { createDb } from "../server/db/client.ts";
import { endPgPool } from "../server/db/pg-pool.ts";
import { listCalls } from "../server/call-log/list.ts";
import { sealAll } from "../server/audit/seal/seal.ts";
import { verifyChains } from "../server/audit/seal/verify.ts";

const ROWS = Number(process.env.KULE_BENCH_AUDIT_ROWS ?? 20_000_000);
const TENANTS = 40;
const DAYS = 30;
const EXPORT_ROWS = Number(process.env.KULE_BENCH_AUDIT_EXPORT_ROWS ?? Math.min(10_000_000, Math.floor(ROWS / 2)));

const INDEXES = [
  `CREATE INDEX "CallLog_tenantId_startedAt_idx" ON "CallLog"("tenantId", "startedAt")`,
  `CREATE INDEX "CallLog_startedAt_idx" ON "CallLog"("startedAt")`,
  `CREATE INDEX "CallLog_apiKeyId_startedAt_idx" ON "CallLog"("apiKeyId", "startedAt")`,
  `CREATE INDEX "CallLog_endpointId_startedAt_idx" ON "CallLog"("endpointId", "startedAt")`,
  `CREATE INDEX "CallLog_endpointVersionId_startedAt_idx" ON "CallLog"("endpointVersionId", "startedAt")`,
  `CREATE INDEX "CallLog_clientIp_startedAt_idx" ON "CallLog"("clientIp", "startedAt")`,
  `CREATE INDEX "CallLog_status_startedAt_idx" ON "CallLog"("status", "startedAt")`,
  `CREATE INDEX "CallLog_userHash_idx" ON "CallLog"("userHash")`,
];

async function generate(pool: pg.Pool, start: Date) {
  const t0 = performance.now();
  await pool.query(`INSERT INTO "Tenant" (id, name, slug, kvkk, "updatedAt") SELECT 'bt' || g, 'Bench ' || g, 'bench-' || g, g % 3 = 0, now() FROM generate_series(1, ${TENANTS}) g`);
  for (let m = -1; m <= 2; m++) await pool.query(`SELECT kule_call_log_partition(($1::timestamptz AT TIME ZONE 'UTC') + make_interval(months => $2))`, [start, m]);
  for (const sql of INDEXES) await pool.query(`DROP INDEX "${/"(CallLog_[^"]+)"/.exec(sql)![1]}"`);
  await pool.query(`ALTER TABLE "CallLog" DROP CONSTRAINT "CallLog_pkey"`);
  await pool.query(`ALTER TABLE "CallLog" DROP CONSTRAINT "CallLog_tenantId_fkey"`);
  const step = (DAYS * 86_400_000) / ROWS;
  const chunk = 2_000_000;
  for (let from = 1; from <= ROWS; from += chunk) {
    const to = Math.min(ROWS, from + chunk - 1);
    await pool.query(
      `INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", replica, region, "clientIp", "startedAt", "endedAt", "ttftMs", status, "errorClass", "promptTokens", "completionTokens", "userHash")
       SELECT md5(g::text), 'bt' || (1 + (g * 7919) % ${TENANTS}), 'key-' || (g % 200), 'ep-' || (g % 12), 'ev-' || (g % 24), 'rep-' || (g % 64),
              CASE WHEN g % 50 = 0 THEN 'tr-ank' ELSE 'tr-ist' END, '10.' || (g % 200) || '.' || (g % 251) || '.' || (g % 253),
              ($1::timestamptz AT TIME ZONE 'UTC') + g * make_interval(secs => ${step / 1000}), ($1::timestamptz AT TIME ZONE 'UTC') + g * make_interval(secs => ${step / 1000}) + interval '850 ms',
              40 + g % 200, CASE WHEN g % 97 = 0 THEN 503 ELSE 200 END, CASE WHEN g % 97 = 0 THEN 'upstream_error' END, 50 + g % 900, 20 + g % 400,
              CASE WHEN g % 5 = 0 THEN md5('subject' || (g % 100000)) || md5('x' || (g % 100000)) END
         FROM generate_series(${from}::bigint, ${to}::bigint) g`,
      [start],
    );
    console.log(`  generated ${to.toLocaleString("en")} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const loaded = (performance.now() - t0) / 1000;
  await pool.query(`ALTER TABLE "CallLog" ADD CONSTRAINT "CallLog_pkey" PRIMARY KEY ("requestId", "startedAt")`);
  for (const sql of INDEXES) await pool.query(sql);
  await pool.query(`ALTER TABLE "CallLog" ADD CONSTRAINT "CallLog_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE`);
  await pool.query(`VACUUM ANALYZE "CallLog"`);
  return { load_seconds: Math.round(loaded), generation_seconds: Math.round((performance.now() - t0) / 1000) };
}

export async function benchAudit() {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_bench_audit");
  const pool = new pg.Pool({ connectionString: url, max: 4, options: "-c TimeZone=UTC" });
  const db = createDb(url);
  try {
    await deployMigrations(url);
    // Whole days, ending more than a day ago, so every hour is past the seal's grace period.
    const start = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - (DAYS + 2) * 86_400_000);
    const gen = await generate(pool, start);
    console.log(`  ${ROWS.toLocaleString("en")} rows ready in ${gen.generation_seconds} s`);

    const user = await db.user.create({ data: { email: "bench-auditor@kule.local", name: "Bench", passwordHash: "x", membership: { create: { role: "auditor" } } } });
    const actor = { userId: user.id, email: user.email, name: user.name, role: "auditor" as const, tenantId: null };
    const times: number[] = [];
    for (let i = 0; i < 31; i++) {
      const day = new Date(start.getTime() + ((i * 7) % DAYS) * 86_400_000);
      const t0 = performance.now();
      const page = await listCalls({ db, actor, ip: null }, { tenantId: `bt${1 + ((i * 13) % TENANTS)}`, from: day, to: new Date(day.getTime() + 86_400_000), limit: 50 });
      if (i > 0) times.push(performance.now() - t0); // the first warms the plan cache
      if (page.items.length !== 50) throw new Error(`explorer page held ${page.items.length} rows`);
    }

    const exportTo = new Date(start.getTime() + (EXPORT_ROWS / ROWS) * DAYS * 86_400_000);
    const child = JSON.parse(execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "bench/audit-export-child.ts", url, JSON.stringify({ from: start, to: exportTo })], { encoding: "utf8", maxBuffer: 1 << 20 }).trim().split("\n").pop()!);
    console.log(`  export: ${JSON.stringify(child)}`);

    const s0 = performance.now();
    const sealed = await sealAll(pool, { graceMinutes: 60 });
    const sealSeconds = (performance.now() - s0) / 1000;
    const verify = await verifyChains(pool);
    if (!verify.ok) throw new Error(`verify failed: ${JSON.stringify(verify.firstBad)}`);

    writeResult("audit", {
      call_log_rows: ROWS,
      generation: `INSERT … SELECT generate_series inside PostgreSQL with secondary indexes dropped, then rebuilt: ${gen.load_seconds} s to load, ${gen.generation_seconds} s with indexes`,
      generation_seconds: gen.generation_seconds,
      explorer_ms_p50: +median(times).toFixed(1),
      explorer_ms_p95: +[...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]!.toFixed(1),
      export_rows: child.rows,
      export_seconds: +child.seconds.toFixed(1),
      export_rows_per_second: child.rows_per_second,
      export_peak_rss_mb: child.peak_rss_mb,
      seal_rows_per_second: Math.round(sealed.reduce((n, s) => n + s.rows, 0) / sealSeconds),
      verify_rows: verify.rows,
      verify_seconds: +(verify.ms / 1000).toFixed(1),
      verify_rows_per_second: verify.rowsPerSecond,
      targets: { explorer_ms_p50: 200, export_rows_per_second: 100_000, export_peak_rss_mb: 300, verify_rows_per_second: 500_000 },
    });
  } finally {
    await endPgPool(db);
    await db.$disconnect();
    await pool.end();
    await dropDatabase(url);
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAudit();
