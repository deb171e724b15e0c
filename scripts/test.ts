/**
 * `npm test`: typecheck, lint, Prometheus rule tests (promtool), unit, cluster (the simulator,
 * the drivers and a real Prometheus), integration (against a real, migrated PostgreSQL: the
 * server of DATABASE_URL, else the embedded one) and end-to-end in Chromium. Every run uses its
 * own databases. The last line is the total, "N passed, N failed".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "./migrate.ts";
import { seed } from "../prisma/seed.ts";
import { discoverSimulatedCluster } from "./lib/discover.ts";
import { createScratchDatabase, dropDatabase } from "./lib/database.ts";
import { buildIfStale } from "./lib/build.ts";
import { INTEGRATION_PROJECTS } from "./lib/integration-projects.ts";
import { run } from "./lib/proc.ts";
import { promtoolTestRules } from "./lib/prometheus.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kule-test-"));
const totals = { passed: 0, failed: 0 };
/** The failed tests by name, repeated at the end: CI keeps only the tail of the output. */
const failedTests: string[] = [];
const only = process.argv[2]; // e.g. `npm test -- e2e` runs one stage
const filter = process.argv.slice(3); // and `npm test -- e2e limits` only the spec files matching "limits"

function count(file: string, kind: "vitest" | "playwright") {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  if (kind === "vitest") {
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    for (const f of r.testResults ?? [])
      for (const t of f.assertionResults ?? [])
        if (t.status === "failed") failedTests.push(`${path.relative(process.cwd(), f.name)} › ${t.fullName}: ${(String(t.failureMessages?.[0] ?? "").split("\n")[0] ?? "").slice(0, 300)}`);
  } else {
    totals.passed += r.stats.expected;
    totals.failed += r.stats.unexpected + r.stats.flaky;
  }
}

async function stage(name: string, fn: () => Promise<void>) {
  if (only && only !== name) return;
  const t0 = Date.now();
  console.log(`\n━━ ${name} ━━`);
  await fn();
  console.log(`━━ ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Errors outside any test, written by vitest.config.ts's onUnhandledError, repeated at the end. */
const unhandled: string[] = [];

async function vitest(project: string) {
  const out = path.join(tmp, `${project}.json`);
  const errors = path.join(tmp, `${project}.unhandled.txt`);
  try {
    await run("npx", ["vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], { ...process.env, KULE_TEST_ERRORS_FILE: errors });
  } finally {
    count(out, "vitest");
    if (fs.existsSync(errors)) unhandled.push(`${project}: ${fs.readFileSync(errors, "utf8").trim()}`);
  }
}

/**
 * The integration projects (vitest.config.ts), each in a vitest of its own with its own database
 * and simulator, at the same time: vitest 4 runs every one-file-at-a-time project in one queue, so
 * side by side they must be separate runs. Both finish before the stage says how it went.
 */
async function sideBySide(runs: (() => Promise<void>)[]) {
  const failed = (await Promise.allSettled(runs.map((r) => r()))).filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed.length) throw new Error(failed.map((f) => (f.reason instanceof Error ? f.reason.message : String(f.reason))).join("; "));
}

async function e2e() {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_e2e");
  try {
    await deployMigrations(url);
    const db = createDb(url);
    // The e2e simulator plays the reference cluster: learn it through discovery, then seed the endpoints on it.
    await discoverSimulatedCluster(db);
    await seed(db);
    await db.$disconnect();
    await buildIfStale();
    const out = path.join(tmp, "e2e.json");
    try {
      await run("npx", ["playwright", "test", "--reporter=list,json", ...filter], { ...process.env, KULE_E2E_DATABASE_URL: url, PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    } finally {
      count(out, "playwright");
    }
  } finally {
    await dropDatabase(url);
    await server.stop();
  }
}

async function main() {
  // One database server for every stage (the embedded one unless DATABASE_URL is set): a machine
  // where it cannot start is told so once, with the ways out, instead of in every stage.
  let server: Awaited<ReturnType<typeof resolveDatabaseUrl>>;
  try {
    server = await resolveDatabaseUrl();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
  process.env.DATABASE_URL = server.url;
  const failedStages: string[] = [];
  const attempt = async (name: string, fn: () => Promise<void>) => {
    try {
      await stage(name, fn);
    } catch (e) {
      failedStages.push(name);
      console.error(`✗ ${name}: ${e instanceof Error ? e.message : e}`);
    }
  };
  await attempt("typecheck", () => run("npx", ["tsc", "--noEmit"]));
  await attempt("lint", () => run("npx", ["eslint", ".", "--max-warnings", "0"]));
  await attempt("rules", async () => promtoolTestRules());
  await attempt("unit", () => vitest("unit"));
  const integration = INTEGRATION_PROJECTS.map((p) => () => vitest(p));
  if (only) {
    await attempt("cluster", () => vitest("cluster"));
    await attempt("integration", () => sideBySide(integration));
  } else {
    // The whole suite: the cluster tests (mostly waiting on Prometheus' scrapes and the
    // simulator's timers, on ports of their own) beside the two integration projects.
    await attempt("cluster + integration", () => sideBySide([() => vitest("cluster"), ...integration]));
  }
  await attempt("e2e", e2e);
  if (unhandled.length) console.error(`\nErrors outside any test (each fails the run):\n${unhandled.join("\n").slice(0, 4000)}`);
  await server.stop();
  if (failedTests.length) console.error(`\nFailed tests:\n${failedTests.join("\n")}`);
  if (failedStages.length) console.error(`\nFailed stages: ${failedStages.join(", ")}`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
  if (failedStages.length || totals.failed > 0) process.exit(1);
}

void main();
