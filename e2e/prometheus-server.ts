/**
 * Playwright's Prometheus (a webServer entry in playwright.config.ts): Debian's binary, scraping
 * the e2e simulator and gateway every second, loading the SLO rules the app writes. Local only.
 */
import fs from "node:fs";
import { startPrometheus } from "../scripts/lib/prometheus.ts";
import { sdCredentialsFile } from "../server/metrics/prometheus/sd-token.ts";

const dataDir = process.env.KULE_E2E_PROMETHEUS_DIR!;
// A fresh TSDB per run (no data from an earlier one); the rules the app writes beside it stay.
fs.rmSync(`${dataDir}/prometheus/data`, { recursive: true, force: true });
const prometheus = await startPrometheus({
  dataDir,
  port: Number(process.env.KULE_E2E_PROMETHEUS_PORT),
  sdTargets: [
    { job: "kule-sim", url: `${process.env.KULE_SIM_URL}/sd` },
    { job: "kule-gateway", url: `${process.env.KULE_GATEWAY_ADMIN_URL}/sd` },
    // Every replica the app knows, with its labels; the app is given the same token.
    { job: "kule-replicas", url: `${process.env.KULE_APP_URL}/api/prometheus/sd`, credentialsFile: sdCredentialsFile(dataDir, process.env.KULE_PROMETHEUS_SD_TOKEN) },
  ],
  scrapeIntervalSeconds: 1,
});
if (!prometheus) {
  console.error("No prometheus binary: apt-get install -y prometheus");
  process.exit(1);
}
const stop = async () => {
  await prometheus.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
console.log(`Prometheus for e2e at ${prometheus.url}`);
