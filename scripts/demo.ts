/**
 * `npm run demo`: everything on embedded defaults. Starts PostgreSQL (embedded unless
 * DATABASE_URL is set), migrates, starts the cluster simulator, learns the cluster through the
 * driver's discovery, seeds, starts Prometheus (when its binary is installed), builds when
 * needed, starts the app, and prints the URLs, the demo logins and each seeded tenant's API key.
 *
 * `npm run demo -- --cluster kubernetes` runs the same demo through the Kubernetes driver: the
 * simulator also serves Kule's Kubernetes API stand-in, whose nodes it plays, and Kule drives
 * that API server as it would a real one (the UI says it is a stand-in).
 */
import { pgPool } from "../server/db/pg-pool.ts";
import { processRings } from "../server/call-log/keys/rings.ts";
import { registerRings } from "../server/call-log/keys/registry.ts";
import { rekeyBatch } from "../server/kvkk/rekey.ts";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "./migrate.ts";
import { seed } from "../prisma/seed.ts";
import { authSecret } from "./lib/auth-secret.ts";
import { buildIfStale } from "./lib/build.ts";
import { portFree, start, waitForHttp } from "./lib/proc.ts";
import { startPrometheus } from "./lib/prometheus.ts";
import { ALERTMANAGER_INSTALL_HINT, startAlertmanager } from "./lib/alertmanager.ts";
import { ALERT_WEBHOOK_TOKEN_FILE } from "../server/alerts/webhook-token.ts";
import { sdCredentialsFile } from "../server/metrics/prometheus/sd-token.ts";
import { startDemoReplicas } from "./lib/demo-replicas.ts";
import { startDemoCanary } from "./lib/demo-canary.ts";
import { seedHistory } from "../prisma/seed/history.ts";
import { SimDriver } from "../server/cluster/sim-driver.ts";
import { ExternalDriver } from "../server/cluster/external-driver.ts";
import { reconcileReplicas } from "../server/cluster/replicas.ts";
import { discoverCluster } from "../server/cluster/sync.ts";
import { KubernetesDriver } from "../server/cluster/kubernetes/kubernetes-driver.ts";
import { loadKubeConfig } from "../server/cluster/kubernetes/settings.ts";
import { defaultKubernetesSettings } from "../server/cluster/kubernetes/default-settings.ts";

const dataDir = process.env.KULE_DATA_DIR ?? ".data";
const port = Number(process.env.PORT ?? 3000);
const simPort = Number(process.env.KULE_SIM_PORT ?? 7400);
const promPort = Number(process.env.KULE_PROMETHEUS_PORT ?? 9090);
const amPort = Number(process.env.KULE_ALERTMANAGER_PORT ?? 9093);
const gatewayPort = Number(process.env.KULE_GATEWAY_PORT ?? 8080);
// The gateway's /metrics and /sd are on its admin listener (loopback), not on the port tenants call.
const gatewayAdminPort = Number(process.env.KULE_GATEWAY_ADMIN_PORT ?? gatewayPort + 1000);
// The demo serves KServe v2 over gRPC too, beside the gateway's port (as Triton's 8001 is beside its 8000).
const gatewayGrpcPort = Number(process.env.KULE_GATEWAY_GRPC_PORT ?? gatewayPort + 1);
const kubePort = Number(process.env.KULE_SIM_KUBERNETES_PORT ?? 6443);
const clusterArg = process.argv.find((a, i) => a.startsWith("--cluster=") || process.argv[i - 1] === "--cluster");
const clusterKind = clusterArg?.replace("--cluster=", "") ?? "sim";
let prometheus: Awaited<ReturnType<typeof startPrometheus>> = null;
let alertmanager: Awaited<ReturnType<typeof startAlertmanager>> = null;

async function main() {
  const t0 = Date.now();
  if (clusterKind !== "sim" && clusterKind !== "kubernetes") throw new Error(`--cluster is sim or kubernetes, not ${clusterKind}`);
  const kubernetes = clusterKind === "kubernetes";
  const ports = [[port, "PORT"], [simPort, "KULE_SIM_PORT"], [promPort, "KULE_PROMETHEUS_PORT"], [amPort, "KULE_ALERTMANAGER_PORT"], [gatewayPort, "KULE_GATEWAY_PORT"], [gatewayGrpcPort, "KULE_GATEWAY_GRPC_PORT"], ...(kubernetes ? [[kubePort, "KULE_SIM_KUBERNETES_PORT"] as const] : [])] as const;
  for (const [p, what] of ports) {
    if (!(await portFree(p))) throw new Error(`Port ${p} is already in use (another Kule?). Stop what listens there, or start with ${what}=${p + 1} npm run demo.`);
  }
  const database = await resolveDatabaseUrl();
  console.log(database.embedded ? `Embedded PostgreSQL running (${new URL(database.url).host}).` : "Using DATABASE_URL.");
  const applied = await deployMigrations(database.url);
  if (applied.length) console.log(`Applied ${applied.length} migration(s).`);
  const db = createDb(database.url);

  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill("SIGTERM");
    await prometheus?.stop();
    await alertmanager?.stop();
    await database.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stopAll(0));
  process.on("SIGTERM", () => void stopAll(0));
  const watch = (name: string, child: ChildProcess) => {
    children.push(child);
    child.on("exit", (code) => {
      if (stopping) return;
      console.error(`The ${name} exited (${code}).`);
      void stopAll(1);
    });
  };

  const kubeconfig = path.resolve(dataDir, "stand-in.kubeconfig");
  const standIn = kubernetes ? { KULE_SIM_KUBERNETES_PORT: String(kubePort), KULE_SIM_KUBECONFIG: kubeconfig, KULE_CLUSTER_DRIVER: "kubernetes", KULE_KUBECONFIG: kubeconfig } : {};
  const env = { ...process.env, DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1", KULE_SIM_PORT: String(simPort), KULE_SIM_URL: `http://127.0.0.1:${simPort}`, ...standIn };
  // The simulator plays the reference cluster (and, for --cluster kubernetes, serves the Kubernetes API stand-in); tsx runs it from source.
  watch("simulator", start("sim", process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/cluster/sim/main.ts"], env));
  await waitForHttp(`${env.KULE_SIM_URL}/healthz`, 30_000);
  if (kubernetes) await waitForHttp(`http://127.0.0.1:${kubePort}/version`, 30_000);
  const drivers = {
    sim: new SimDriver(env.KULE_SIM_URL),
    external: new ExternalDriver(),
    kubernetes: kubernetes ? new KubernetesDriver(loadKubeConfig({ kubeconfig }, false), defaultKubernetesSettings()) : undefined,
  };
  // The cluster says what it is (pools, nodes, GPUs, MIG); the seed's endpoints then find their pools.
  await discoverCluster(db, drivers);
  const seeded = await seed(db);
  await reconcileReplicas(db, drivers);
  const replicas = await startDemoReplicas(db, drivers);
  const canary = await startDemoCanary(db, drivers);
  // 90 days of call logs, generated in PostgreSQL once (a marker keeps a restart from seeding again).
  const history = await seedHistory(db);
  if (history.seeded) {
    // The history is written by one SQL statement with IPs in clear: encrypted here, before any hour is sealed.
    await registerRings(pgPool(db), processRings());
    let encrypted = 0;
    for (let r; (r = await rekeyBatch(pgPool(db), { actor: null, batch: 20_000 })).encryptedClear > 0; ) encrypted += r.encryptedClear;
    console.log(`Encrypted the client IPs of ${encrypted.toLocaleString("en")} seeded calls under the current key.`);
  }
  console.log(history.seeded ? `Seeded ${history.rows.toLocaleString("en")} calls of history (${history.from.toISOString().slice(0, 10)} to ${history.to.toISOString().slice(0, 10)}) in ${(history.ms / 1000).toFixed(1)} s.` : `History not seeded: ${history.reason}.`);
  drivers.external.close();
  drivers.kubernetes?.close();
  await db.$disconnect();

  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  watch("gateway", start("gateway", process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/gateway/main.ts"], { ...env, KULE_GATEWAY_PORT: String(gatewayPort), KULE_GATEWAY_GRPC_PORT: String(gatewayGrpcPort) }));
  await waitForHttp(`${gatewayUrl}/healthz`, 30_000);
  watch("load generator", start("load", process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/load-generator.ts"], { ...env, KULE_GATEWAY_URL: gatewayUrl, KULE_LOAD_KEYS: seeded.apiKeys.map((k) => k.secret).join(",") }));

  // Alerts: Prometheus → Alertmanager → Kule's webhook (and the receivers operators add in the UI).
  alertmanager = await startAlertmanager({
    dataDir,
    port: amPort,
    config: { kuleWebhookUrl: `http://127.0.0.1:${port}/api/alerts/webhook`, kuleTokenFile: sdCredentialsFile(dataDir, process.env.KULE_ALERT_WEBHOOK_TOKEN, ALERT_WEBHOOK_TOKEN_FILE), groupWait: "5s", groupInterval: "30s" },
  });
  prometheus = await startPrometheus({
    dataDir,
    port: promPort,
    alertmanagerUrl: alertmanager?.url,
    sdTargets: [
      // The simulator's hardware (a dcgm-exporter per node), the gateway, and every replica Kule knows (any driver).
      { job: "kule-sim", url: `${env.KULE_SIM_URL}/sd` },
      { job: "kule-gateway", url: `http://127.0.0.1:${gatewayAdminPort}/sd` },
      { job: "kule-replicas", url: `http://127.0.0.1:${port}/api/prometheus/sd`, credentialsFile: sdCredentialsFile(dataDir, process.env.KULE_PROMETHEUS_SD_TOKEN) },
    ],
  });
  const promUrl = prometheus?.url;

  await buildIfStale();
  const appEnv = { ...env, AUTH_SECRET: authSecret(dataDir), PORT: String(port), ...(prometheus ? { KULE_PROMETHEUS_URL: prometheus.url, KULE_PROMETHEUS_RULES_DIR: prometheus.rulesDir } : {}), ...(alertmanager ? { KULE_ALERTMANAGER_URL: alertmanager.url, KULE_ALERTMANAGER_CONFIG_FILE: alertmanager.configFile } : {}) };
  // Next's own binary, not npx: a signal to it then reaches the server itself.
  watch("app", start("app", process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/app-server.ts", "-p", String(port), "-H", "127.0.0.1"], appEnv));

  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/login`, 60_000);
  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`
Kule is up in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${url}

  gateway            ${gatewayUrl}  (OpenAI-compatible /v1, KServe v2 /v2; demo traffic is flowing)
  gateway (gRPC)     127.0.0.1:${gatewayGrpcPort}  (KServe v2 inference.GRPCInferenceService; see README "KServe v2 over gRPC")
  simulated cluster  ${env.KULE_SIM_URL}  (replicas started: ${replicas.length ? replicas.join("; ") : "none needed"}; canary: ${canary})${kubernetes ? `\n  kubernetes driver  http://127.0.0.1:${kubePort}  (Kule's API server stand-in; kubeconfig ${kubeconfig})` : ""}
  prometheus         ${promUrl ?? "off — install it to see live metrics: sudo apt-get install -y prometheus (Debian/Ubuntu) or brew install prometheus (macOS), then restart"}
  alertmanager       ${alertmanager ? `${alertmanager.url}  (alerts reach Kule's alert history and the receivers set under Alerts)` : `off — SLO and GPU alerts stay badges on the pages and reach nobody; to route them: ${ALERTMANAGER_INSTALL_HINT}, then restart`}

Sign in as:
${seeded.logins.map((l) => `  ${pad(l.role, 9)} ${pad(l.email, 32)} ${l.password}`).join("\n")}

API keys of the seeded tenants (for the gateway):
${seeded.apiKeys.map((k) => `  ${pad(k.tenantSlug, 18)} ${k.secret}`).join("\n")}

Call a model now:
  curl ${gatewayUrl}/v1/chat/completions -H "Authorization: Bearer ${seeded.apiKeys[0]!.secret}" -H "Content-Type: application/json" \\
    -d '{"model": "chat", "messages": [{"role": "user", "content": "Merhaba!"}]}'

Press Ctrl+C to stop.`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
