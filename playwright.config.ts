import { defineConfig } from "@playwright/test";
import os from "node:os";
import path from "node:path";
import { E2E_STANDARD_RING } from "./e2e/subject-keys";

// `npm test` (scripts/test.ts) prepares a fresh seeded database and a production build, then
// runs this with KULE_E2E_DATABASE_URL set. Debian's Chromium is used: never download a browser.
const port = Number(process.env.KULE_E2E_PORT ?? 3100);
const simPort = port + 1;
// Prometheus (e2e/prometheus-server.ts) scrapes the simulator and a gateway, so charts have data.
const promPort = port + 2;
const gatewayPort = port + 3;
// The gateway's /metrics and /sd answer on its admin listener, not on the API port.
const gatewayAdminPort = port + 4;
const promDir = path.join(os.tmpdir(), `kule-e2e-prometheus-${port}`);
const database = process.env.KULE_E2E_DATABASE_URL ?? "";
// Prometheus presents it to the app's service discovery (/api/prometheus/sd).
const sdToken = "e2e-sd-token-e2e-sd-token";
// Alertmanager (e2e/alertmanager-server.ts) delivers to the app's webhook with this token.
const amPort = port + 5;
const amDir = path.join(os.tmpdir(), `kule-e2e-alertmanager-${port}`);
const alertToken = "e2e-alert-token-e2e-alert-token";
// A real OpenID provider (e2e/oidc-server.ts) the app signs people in with: port + 6.
const oidcPort = port + 6;
const E2E_AUTH_SECRET = "e2e-secret-e2e-secret-e2e-secret";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.KULE_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: [
    {
      command: "node node_modules/tsx/dist/cli.mjs e2e/oidc-server.ts",
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { KULE_E2E_OIDC_PORT: String(oidcPort), KULE_APP_URL: `http://127.0.0.1:${port}` },
    },
    {
      // The simulated cluster, playing the seeded one with short cold starts.
      command: "node node_modules/tsx/dist/cli.mjs server/cluster/sim/main.ts",
      url: `http://127.0.0.1:${simPort}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { DATABASE_URL: database, KULE_SIM_PORT: String(simPort), KULE_SIM_STORAGE_BANDWIDTH: "20000000000", KULE_SIM_LATENCY_SCALE: "0.2" },
    },
    {
      command: `node node_modules/tsx/dist/cli.mjs scripts/app-server.ts -p ${port} -H 127.0.0.1`,
      url: `http://127.0.0.1:${port}/login`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        DATABASE_URL: database,
        AUTH_SECRET: E2E_AUTH_SECRET,
        KULE_OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
        // The test identity provider runs on this host, as an in-house one on a private network would.
        KULE_OUTBOUND_ALLOW: "127.0.0.1/32",
        KULE_OIDC_CLIENT_ID: "kule-e2e",
        KULE_OIDC_CLIENT_SECRET: "kule-e2e-oidc-client-secret",
        KULE_OIDC_NAME: "Test IdP",
        KULE_OIDC_SCOPES: "openid email profile groups",
        NEXT_TELEMETRY_DISABLED: "1",
        KULE_SIM_URL: `http://127.0.0.1:${simPort}`,
        KULE_PROMETHEUS_URL: `http://127.0.0.1:${promPort}`,
        KULE_PROMETHEUS_RULES_DIR: path.join(promDir, "prometheus", "rules"),
        KULE_PROMETHEUS_SD_TOKEN: sdToken,
        KULE_ALERTMANAGER_URL: `http://127.0.0.1:${amPort}`,
        KULE_ALERTMANAGER_CONFIG_FILE: path.join(amDir, "alertmanager", "alertmanager.yml"),
        KULE_ALERT_WEBHOOK_TOKEN: alertToken,
        KULE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/api/alerts/webhook`,
        KULE_SUBJECT_HASH_KEYS: E2E_STANDARD_RING,
      },
    },
    {
      command: "node node_modules/tsx/dist/cli.mjs server/gateway/main.ts",
      url: `http://127.0.0.1:${gatewayPort}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { DATABASE_URL: database, KULE_GATEWAY_PORT: String(gatewayPort), KULE_GATEWAY_ADMIN_PORT: String(gatewayAdminPort), KULE_GATEWAY_SPOOL_DIR: path.join(os.tmpdir(), `kule-e2e-spool-${port}`), KULE_SUBJECT_HASH_KEYS: E2E_STANDARD_RING },
    },
    {
      command: "node node_modules/tsx/dist/cli.mjs e2e/prometheus-server.ts",
      url: `http://127.0.0.1:${promPort}/-/ready`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: {
        KULE_E2E_PROMETHEUS_DIR: promDir,
        KULE_E2E_PROMETHEUS_PORT: String(promPort),
        KULE_SIM_URL: `http://127.0.0.1:${simPort}`,
        KULE_GATEWAY_ADMIN_URL: `http://127.0.0.1:${gatewayAdminPort}`,
        KULE_APP_URL: `http://127.0.0.1:${port}`,
        KULE_PROMETHEUS_SD_TOKEN: sdToken,
      },
    },
    {
      command: "node node_modules/tsx/dist/cli.mjs e2e/alertmanager-server.ts",
      url: `http://127.0.0.1:${amPort}/-/ready`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { KULE_E2E_ALERTMANAGER_DIR: amDir, KULE_ALERTMANAGER_PORT: String(amPort), KULE_APP_URL: `http://127.0.0.1:${port}`, KULE_ALERT_WEBHOOK_TOKEN: alertToken },
    },
  ],
});
