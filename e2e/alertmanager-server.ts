/**
 * Playwright's Alertmanager (a webServer entry in playwright.config.ts): Debian's binary, delivering
 * to the e2e app's webhook; the app renders its config from the receivers operators add.
 */
import fs from "node:fs";
import path from "node:path";
import { startAlertmanager } from "../scripts/lib/alertmanager.ts";

const dataDir = process.env.KULE_E2E_ALERTMANAGER_DIR!;
fs.rmSync(path.join(dataDir, "alertmanager"), { recursive: true, force: true }); // no alerts or silences from an earlier run
fs.mkdirSync(dataDir, { recursive: true });
const tokenFile = path.join(dataDir, "alert-webhook-token");
fs.writeFileSync(tokenFile, process.env.KULE_ALERT_WEBHOOK_TOKEN!);
const am = await startAlertmanager({
  dataDir,
  port: Number(process.env.KULE_ALERTMANAGER_PORT),
  config: { kuleWebhookUrl: `${process.env.KULE_APP_URL}/api/alerts/webhook`, kuleTokenFile: tokenFile, groupWait: "1s", groupInterval: "2s" },
});
if (!am) {
  console.error("No Alertmanager binary: apt-get install -y prometheus-alertmanager");
  process.exit(1);
}
const stop = async () => {
  await am.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
console.log(`Alertmanager for e2e at ${am.url}`);
