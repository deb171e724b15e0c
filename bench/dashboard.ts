/**
 * Dashboard benchmark, from a production build: the whole stack (simulator, gateway with demo
 * traffic, a real Prometheus, `next start`) on a scratch database.
 *  - In Chromium: time from navigation to the endpoint page's first chart with data, and to every
 *    chart of the page drawn with its data, over several navigations (target: first data ≤ 1.5 s).
 *  - 20 concurrent viewers polling the page's data every 5 s, each at its own phase: the queries
 *    counted at Prometheus itself (its prometheus_http_requests_total) per refresh, in sets of
 *    the page's queries (target: at most one set per refresh).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { chromium, type Page } from "@playwright/test";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { seed } from "../prisma/seed.ts";
import { discoverCluster } from "../server/cluster/sync.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { buildIfStale } from "../scripts/lib/build.ts";
import { freePort, start, waitForHttp } from "../scripts/lib/proc.ts";
import { startPrometheus } from "../scripts/lib/prometheus.ts";
import { startAlertmanager } from "../scripts/lib/alertmanager.ts";
import { ALERT_WEBHOOK_TOKEN_FILE } from "../server/alerts/webhook-token.ts";
import { measureAlertDelivery } from "./alert-delivery.ts";
import { sdCredentialsFile } from "../server/metrics/prometheus/sd-token.ts";
import { startDemoReplicas } from "../scripts/lib/demo-replicas.ts";
import { SimDriver } from "../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../server/cluster/external-driver.ts";
import { reconcileReplicas } from "../server/cluster/replicas.ts";
import { panelsFor } from "../server/metrics/endpoint-panels.ts";

/** The bench's endpoint (chat) is served by vLLM: these are the panels its page draws. */
const ENDPOINT_PANELS = panelsFor("vllm");
import { median, writeResult } from "./lib.ts";

const VIEWERS = 20;
const REFRESH_MS = 5000;
const NAVIGATIONS = 8;
const OPERATOR = { email: "operator@kule.local", password: "kule-operator-demo" };

/**
 * Runs in the page (a string, so the bundler's helpers stay out of it). Resolves with
 * [first chart drawn with data, every panel present and each one with data drawn], in ms since
 * the navigation started (performance.now()).
 */
const FIRST_DATA_PROBE = `new Promise((resolve) => {
  let first = 0;
  const drawn = (f) => f.querySelector("svg.recharts-surface path.recharts-curve") !== null;
  const check = () => {
    const figs = [...document.querySelectorAll('[role="figure"]')];
    const withData = figs.filter((f) => f.getAttribute("data-has-data") === "yes");
    if (!first && withData.some(drawn)) first = performance.now();
    if (first && figs.length >= PANELS && withData.every(drawn)) {
      const nav = performance.getEntriesByType("navigation")[0];
      const trpc = performance.getEntriesByType("resource").filter((r) => r.name.includes("/api/trpc/") && r.name.includes("metrics.endpointCharts"));
      const t = trpc[0];
      return resolve([first, performance.now(), nav ? nav.responseEnd : NaN, t ? t.startTime : NaN, t ? t.responseEnd : NaN]);
    }
    if (performance.now() > 30000) return resolve([first || NaN, NaN]);
    requestAnimationFrame(check);
  };
  check();
})`;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** Prometheus' own count of API queries answered (instant and range). */
async function queriesAtPrometheus(promUrl: string): Promise<number> {
  const text = await (await fetch(`${promUrl}/metrics`)).text();
  let n = 0;
  for (const line of text.split("\n")) {
    const m = /^prometheus_http_requests_total\{code="\d+",handler="\/api\/v1\/(query|query_range)"\} (\d+)/.exec(line);
    if (m) n += Number(m[2]);
  }
  return n;
}

async function signIn(page: Page) {
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/credentials", { form: { ...OPERATOR, csrfToken, callbackUrl: "/" } });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`);
}

export async function benchDashboard() {
  const server = await resolveDatabaseUrl();
  const url = await createScratchDatabase(server.url, "kule_bench_dash");
  const children: ChildProcess[] = [];
  let prometheus: Awaited<ReturnType<typeof startPrometheus>> = null;
  let alertmanager: Awaited<ReturnType<typeof startAlertmanager>> = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-bench-dash-"));
  try {
    await deployMigrations(url);
    const db = createDb(url);
    const [amPort, simPort, gatewayPort, promPort, appPort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const env = { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1", KULE_SIM_PORT: String(simPort), KULE_SIM_URL: `http://127.0.0.1:${simPort}`, KULE_DATA_DIR: dataDir };
    children.push(start("sim", process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/cluster/sim/main.ts"], env));
    await waitForHttp(`${env.KULE_SIM_URL}/healthz`, 30_000);
    const drivers = { sim: new SimDriver(env.KULE_SIM_URL), external: new ExternalDriver() };
    await discoverCluster(db, drivers);
    const seeded = await seed(db);
    await reconcileReplicas(db, drivers);
    await startDemoReplicas(db, drivers);
    drivers.external.close();
    const endpoint = await db.endpoint.findUniqueOrThrow({ where: { slug: "chat" }, select: { id: true } });

    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const gatewayAdminPort = await freePort();
    children.push(start("gateway", process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/gateway/main.ts"], { ...env, KULE_GATEWAY_PORT: String(gatewayPort), KULE_GATEWAY_ADMIN_PORT: String(gatewayAdminPort) }));
    await waitForHttp(`${gatewayUrl}/healthz`, 30_000);
    children.push(start("load", process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/load-generator.ts"], { ...env, KULE_GATEWAY_URL: gatewayUrl, KULE_LOAD_KEYS: seeded.apiKeys.map((k) => k.secret).join(","), KULE_LOAD_DAY_SECONDS: process.env.KULE_LOAD_DAY_SECONDS ?? "600" }));
    const replicasSd = { job: "kule-replicas", url: `http://127.0.0.1:${appPort}/api/prometheus/sd`, credentialsFile: sdCredentialsFile(dataDir) };
    const amOptions = { kuleWebhookUrl: `http://127.0.0.1:${appPort}/api/alerts/webhook`, kuleTokenFile: sdCredentialsFile(dataDir, undefined, ALERT_WEBHOOK_TOKEN_FILE), groupWait: "5s", groupInterval: "30s" };
    alertmanager = await startAlertmanager({ dataDir, port: amPort, config: amOptions });
    if (!alertmanager) throw new Error("No Alertmanager binary: apt-get install -y prometheus-alertmanager");
    prometheus = await startPrometheus({ dataDir, port: promPort, alertmanagerUrl: alertmanager.url, sdTargets: [{ job: "kule-sim", url: `${env.KULE_SIM_URL}/sd` }, { job: "kule-gateway", url: `http://127.0.0.1:${gatewayAdminPort}/sd` }, replicasSd] });
    if (!prometheus) throw new Error("No prometheus binary: apt-get install -y prometheus");

    await buildIfStale();
    const appUrl = `http://127.0.0.1:${appPort}`;
    children.push(
      start("app", process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/app-server.ts", "-p", String(appPort), "-H", "127.0.0.1"], {
        ...env,
        AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
        KULE_PROMETHEUS_URL: prometheus.url,
        KULE_PROMETHEUS_RULES_DIR: prometheus.rulesDir,
        KULE_ALERTMANAGER_URL: alertmanager.url,
        KULE_ALERTMANAGER_CONFIG_FILE: alertmanager.configFile,
        // The app is started with -p, not PORT: say where its webhook is, or it renders the default port.
        KULE_ALERT_WEBHOOK_URL: amOptions.kuleWebhookUrl,
      }),
    );
    await waitForHttp(`${appUrl}/login`, 60_000);
    // A minute of traffic, so every chart has data to show.
    await new Promise((r) => setTimeout(r, 45_000));

    const browser = await chromium.launch({ executablePath: process.env.KULE_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
    const firstData: number[] = [];
    const allCharts: number[] = [];
    const breakdown: Record<string, number>[] = [];
    try {
      const context = await browser.newContext({ baseURL: appUrl, viewport: { width: 1280, height: 2400 } });
      const page = await context.newPage();
      await signIn(page);
      const pageUrl = `${appUrl}/endpoints/${endpoint.id}`;
      await page.goto(pageUrl); // warm the server's first compile of the route
      for (let i = 0; i < NAVIGATIONS; i++) {
        // A fresh cache period each time: every navigation pays for its queries to Prometheus.
        await new Promise((r) => setTimeout(r, REFRESH_MS + 200));
        await page.goto("about:blank");
        await page.goto(pageUrl, { waitUntil: "commit" });
        // performance.now() counts from this navigation's start.
        const [first, all, html, askedAt, answeredAt] = (await page.evaluate(FIRST_DATA_PROBE.replace("PANELS", String(ENDPOINT_PANELS.length)))) as number[];
        breakdown.push({ html_ms: Math.round(html!), charts_request_start_ms: Math.round(askedAt!), charts_response_end_ms: Math.round(answeredAt!), first_data_ms: Math.round(first!) });
        firstData.push(Math.round(first!));
        allCharts.push(Math.round(all!));
      }
    } finally {
      await browser.close();
    }

    // 20 viewers, each refreshing every 5 s from its own starting phase, as 20 open tabs do.
    const cookie = await (async () => {
      const b = await chromium.launch({ executablePath: process.env.KULE_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
      const p = await (await b.newContext({ baseURL: appUrl })).newPage();
      await signIn(p);
      const c = (await p.context().cookies()).map((x) => `${x.name}=${x.value}`).join("; ");
      await b.close();
      return c;
    })();
    const input = encodeURIComponent(JSON.stringify({ 0: { json: { endpointId: endpoint.id, range: "15m" } }, 1: { json: null } }));
    const dataUrl = `${appUrl}/api/trpc/metrics.endpointCharts,metrics.sla?batch=1&input=${input}`;
    const windowMs = 30_000;
    let stopping = false;
    // Count over whole cache periods: start on a period boundary, stop on one.
    await new Promise((r) => setTimeout(r, REFRESH_MS - (Date.now() % REFRESH_MS) + 50));
    const before = await queriesAtPrometheus(prometheus.url);
    const viewers = Array.from({ length: VIEWERS }, async (_, v) => {
      await new Promise((r) => setTimeout(r, (v * REFRESH_MS) / VIEWERS));
      while (!stopping) {
        const res = await fetch(dataUrl, { headers: { cookie } });
        if (!res.ok) throw new Error(`viewer ${v}: ${res.status}`);
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, REFRESH_MS));
      }
    });
    await new Promise((r) => setTimeout(r, windowMs - 100));
    stopping = true;
    // The last period's queries are answered before its end; read the count before the next one starts.
    await new Promise((r) => setTimeout(r, REFRESH_MS - (Date.now() % REFRESH_MS) - 300));
    const queries = (await queriesAtPrometheus(prometheus.url)) - before;
    await Promise.all(viewers);
    const elapsed = windowMs;
    const queriesPerSet = ENDPOINT_PANELS.reduce((n, p) => n + p.targets.length, 0) + 2; // charts + SLA status (2 instant queries)
    const refreshes = elapsed / REFRESH_MS;
    const setsPerRefresh = queries / queriesPerSet / refreshes;
    const alerts = await measureAlertDelivery(alertmanager.url, db);
    await db.$disconnect();

    writeResult("dashboard", {
      endpoint_page_first_data_ms_p50: median(firstData),
      endpoint_page_first_data_ms_p95: percentile(firstData, 95),
      endpoint_page_all_charts_ms_p50: median(allCharts),
      endpoint_page_all_charts_ms_p95: percentile(allCharts, 95),
      target_first_data_ms: 1500,
      navigations: NAVIGATIONS,
      first_data_ms: firstData,
      breakdown_median: Object.fromEntries(Object.keys(breakdown[0] ?? {}).map((k) => [k, median(breakdown.map((b) => b[k]!))])),
      viewers: VIEWERS,
      refresh_interval_ms: REFRESH_MS,
      prometheus_queries_counted: queries,
      prometheus_queries_per_set: queriesPerSet,
      prometheus_query_sets_per_refresh: Number(setsPerRefresh.toFixed(2)),
      ...alerts,
      target_alert_fire_to_kule_ms: 1000,
      // Other work on a shared machine slows every figure: say how busy it was.
      load_average_1m_at_end: Number(os.loadavg()[0]!.toFixed(2)),
      note: `Alerts: alert_fire_to_kule_ms is Alertmanager's own notification latency for Kule's webhook (alertmanager_notification_latency_seconds, mean over ${alerts.alert_probes} probe alerts), from its send to Kule's answer, which follows the Alert row's insert; alert_post_to_kule_row_ms_p50 runs from posting the alert to Alertmanager (as Prometheus does when a rule fires) to the row being readable, and includes the 5 s group_wait. `+`Production build (next start). First data: navigation start to the first chart drawn with data, in Chromium, each navigation in a fresh 5 s cache period (cold for Prometheus queries). Viewers: ${VIEWERS} HTTP clients polling the page's batched tRPC request every ${REFRESH_MS / 1000} s at spread phases for ${windowMs / 1000} s; queries counted at Prometheus (prometheus_http_requests_total for /api/v1/query and /api/v1/query_range).`,
    });
  } finally {
    for (const c of children) c.kill("SIGTERM");
    await prometheus?.stop();
    await alertmanager?.stop();
    await dropDatabase(url).catch(() => {});
    await server.stop();
  }
}
