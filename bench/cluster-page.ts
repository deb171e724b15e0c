/**
 * The cluster page at fleet scale, from a production build: a simulator playing 125 nodes of 8
 * GPUs (1,000 GPUs), learned by discovery, scraped by a real Prometheus, `next start`; in
 * Chromium, the time from navigation to the page's first data (the fleet's counts and the first
 * page of nodes), and to all of it (every one of the 1,000 heat map cells too). Adds its figures
 * to bench/results/kubernetes.json (target: first data ≤ 1.5 s).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { chromium, type Page } from "@playwright/test";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { buildIfStale } from "../scripts/lib/build.ts";
import { freePort, start, waitForHttp } from "../scripts/lib/proc.ts";
import { startPrometheus } from "../scripts/lib/prometheus.ts";
import { SimDriver } from "../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../server/cluster/external-driver.ts";
import { discoverCluster } from "../server/cluster/sync.ts";
import { hashPassword } from "../server/auth/password.ts";
import { median } from "./lib.ts";

const NAVIGATIONS = 8;
const OPERATOR = { email: "operator@bench.local", password: "bench-operator-password" };

/** Runs in the page: [first data, all data] in ms since the navigation started. */
const PROBE = `new Promise((resolve) => {
  let first = 0;
  const check = () => {
    const stats = document.querySelector(".stats");
    const nodes = document.querySelector('[role="region"][aria-label="Nodes"] [role="status"]');
    const cells = document.querySelectorAll('[role="region"][aria-label="GPU utilization heat map"] a').length;
    if (!first && stats && nodes) first = performance.now();
    if (first && cells >= 1000) return resolve([first, performance.now(), document.getElementsByTagName("*").length]);
    if (performance.now() > 30000) return resolve([first || NaN, NaN, NaN]);
    requestAnimationFrame(check);
  };
  check();
})`;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function signIn(page: Page) {
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/credentials", { form: { ...OPERATOR, csrfToken, callbackUrl: "/" } });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`);
}

export async function benchClusterPage() {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_bench_fleet");
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-fleet-"));
  let prometheus: Awaited<ReturnType<typeof startPrometheus>> = null;
  try {
    await deployMigrations(url);
    const db = createDb(url);
    const [simPort, promPort, appPort] = [await freePort(), await freePort(), await freePort()];
    const env = { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1", KULE_SIM_PORT: String(simPort), KULE_SIM_URL: `http://127.0.0.1:${simPort}`, KULE_SIM_TOPOLOGY: "fleet-125", KULE_DATA_DIR: dataDir };
    children.push(start("sim", process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/cluster/sim/main.ts"], env));
    await waitForHttp(`${env.KULE_SIM_URL}/healthz`, 30_000);
    const external = new ExternalDriver();
    await discoverCluster(db, { sim: new SimDriver(env.KULE_SIM_URL), external });
    external.close();
    await db.user.create({ data: { email: OPERATOR.email, name: "Bench operator", passwordHash: await hashPassword(OPERATOR.password), membership: { create: { role: "operator" } } } });
    const gpus = await db.gpu.count();
    const nodes = await db.node.count();
    await db.$disconnect();
    prometheus = await startPrometheus({ dataDir, port: promPort, sdTargets: [{ job: "kule-sim", url: `${env.KULE_SIM_URL}/sd` }] });
    await buildIfStale();
    const appUrl = `http://127.0.0.1:${appPort}`;
    children.push(start("app", process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(appPort), "-H", "127.0.0.1"], { ...env, AUTH_SECRET: "bench-secret-bench-secret-bench-secret", ...(prometheus ? { KULE_PROMETHEUS_URL: prometheus.url } : {}) }));
    await waitForHttp(`${appUrl}/login`, 60_000);
    // Two scrapes of every node's exporter, so the heat map has readings.
    await new Promise((r) => setTimeout(r, 12_000));

    const browser = await chromium.launch({ executablePath: process.env.KULE_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
    const first: number[] = [];
    const all: number[] = [];
    let elements = 0;
    try {
      const context = await browser.newContext({ baseURL: appUrl, viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      await signIn(page);
      await page.goto(`${appUrl}/cluster`); // the server's first render of the route
      for (let i = 0; i < NAVIGATIONS; i++) {
        await page.goto("about:blank");
        await page.goto(`${appUrl}/cluster`, { waitUntil: "commit" });
        const [f, a, n] = (await page.evaluate(PROBE)) as number[];
        first.push(Math.round(f!));
        all.push(Math.round(a!));
        elements = n!;
      }
    } finally {
      await browser.close();
    }
    const file = path.join("bench", "results", "kubernetes.json");
    const results = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    Object.assign(results, {
      cluster_page_fleet: { nodes, gpus },
      cluster_page_first_data_ms: median(first),
      cluster_page_first_data_ms_p95: percentile(first, 95),
      cluster_page_all_data_ms: median(all),
      cluster_page_dom_elements: elements,
      target_cluster_page_first_data_ms: 1500,
      cluster_page_note: `Production build (next start), Chromium, median of ${NAVIGATIONS} navigations: first data = the fleet's counts and the first page of nodes drawn; all data = also the heat map's ${gpus} cells (Prometheus scraping the simulator's ${nodes} dcgm-exporter pages). Measured ${new Date().toISOString()}.`,
    });
    fs.writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
    console.log(`${file}: cluster page first data ${median(first)} ms, all ${median(all)} ms`);
  } finally {
    for (const c of children) c.kill("SIGTERM");
    await prometheus?.stop();
    await dropDatabase(url).catch(() => {});
    await server.stop();
  }
}

if (process.argv[1]?.endsWith("cluster-page.ts")) await benchClusterPage();
