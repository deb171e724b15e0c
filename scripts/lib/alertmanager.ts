/**
 * Runs a real Alertmanager (Debian's `prometheus-alertmanager`) beside Prometheus for the demo and
 * tests, and checks configs with its `amtool`. Kule renders the config (server/alerts/); this file
 * only starts the binary on a first config that routes everything to Kule's webhook.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { alertmanagerConfig, type AlertmanagerConfigOptions } from "../../server/alerts/alertmanager-config.ts";
import { portFree } from "./proc.ts";
import { onPath, tail, waitReady } from "./prometheus.ts";

export const ALERTMANAGER_INSTALL_HINT = "sudo apt-get install -y prometheus-alertmanager (Debian/Ubuntu) or brew install alertmanager (macOS)";

/** KULE_ALERTMANAGER_BIN, else Debian's `prometheus-alertmanager` or upstream's `alertmanager` on PATH. */
export function alertmanagerBinary(): string | null {
  return process.env.KULE_ALERTMANAGER_BIN || onPath("prometheus-alertmanager") || onPath("alertmanager");
}

export type RunningAlertmanager = { url: string; configFile: string; stop(): Promise<void> };

/**
 * Starts Alertmanager on 127.0.0.1:`port` with its data, config and log under
 * `<dataDir>/alertmanager/`, and resolves once it is ready; null when no binary is installed.
 */
export async function startAlertmanager(opts: { dataDir: string; port: number; config: AlertmanagerConfigOptions }): Promise<RunningAlertmanager | null> {
  const bin = alertmanagerBinary();
  if (!bin) return null;
  if (!(await portFree(opts.port))) {
    throw new Error(`cannot start Alertmanager: port ${opts.port} on 127.0.0.1 is already in use (stop what listens there or pick another port)`);
  }
  const dir = path.join(path.resolve(opts.dataDir), "alertmanager");
  fs.mkdirSync(path.join(dir, "data"), { recursive: true });
  const configFile = path.join(dir, "alertmanager.yml");
  // Kule rewrites it with the SMTP receivers' passwords (server/alerts/config-sync.ts): owner-only from the start.
  fs.writeFileSync(configFile, alertmanagerConfig([], opts.config), { mode: 0o600 });
  fs.chmodSync(configFile, 0o600);
  const logFile = path.join(dir, "alertmanager.log");
  const log = fs.openSync(logFile, "w");
  const url = `http://127.0.0.1:${opts.port}`;
  const child = spawn(
    bin,
    [
      `--config.file=${configFile}`,
      `--storage.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${opts.port}`,
      `--web.external-url=${url}`,
      // Empty: no cluster gossip (it would bind 0.0.0.0:9094 and clash between runs).
      "--cluster.listen-address=",
    ],
    { stdio: ["ignore", log, log] },
  );
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let exitInfo: string | null = null;
  child.once("exit", (code, signal) => (exitInfo = `exited (${signal ?? code})`));
  const spawnError = new Promise<never>((_, reject) => child.once("error", (e) => reject(new Error(`cannot run ${bin}: ${e.message}`))));
  spawnError.catch(() => {});
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await Promise.race([waitReady(`${url}/-/ready`, 20_000, () => exitInfo), spawnError]);
  } catch (e) {
    await stop();
    throw new Error(`Alertmanager did not become ready: ${(e as Error).message}\n--- ${logFile} (tail) ---\n${tail(logFile)}`);
  }
  return { url, configFile, stop };
}
