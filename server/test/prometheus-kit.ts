import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/lib/proc.ts";
import { startPrometheus, type RunningPrometheus } from "../../scripts/lib/prometheus.ts";

/** Debian's Prometheus scraping a test gateway every second (through the http_sd `/sd` of its admin listener), and the replicas' engines when given their discovery. */
export async function prometheusScrapingGateway(gatewayAdminUrl: string, enginesSdUrl?: string): Promise<RunningPrometheus> {
  const sdTargets = [{ job: "kule-gateway", url: `${gatewayAdminUrl}/sd` }, ...(enginesSdUrl ? [{ job: "kule-replicas", url: enginesSdUrl }] : [])];
  const running = await startPrometheus({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-prom-it-")), port: await freePort(), sdTargets, scrapeIntervalSeconds: 1 });
  if (!running) throw new Error("No prometheus binary: apt-get install -y prometheus");
  return running;
}
