/**
 * Runs a real Prometheus (Debian's `prometheus` package) beside Kule for the demo and tests, and
 * runs promtool over Kule's rule files. Targets come from Kule's HTTP service discovery, so this
 * file never needs to know which replicas exist.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { prometheusConfig, type SdJob } from "../../server/metrics/prometheus/config.ts";
import { generateSloRules } from "../../server/metrics/slo/slo-rules.ts";
import { PROMTOOL_FIXTURE_SLOS } from "../../server/metrics/slo/promtool/fixture.ts";
import { portFree } from "./proc.ts";

const RULES_DIR = path.resolve(import.meta.dirname, "../../server/metrics/prometheus/rules");
const SLO_PROMTOOL_DIR = path.resolve(import.meta.dirname, "../../server/metrics/slo/promtool");
const INSTALL_HINT = "install Debian's Prometheus with `apt-get install -y prometheus`";

/** The first executable `name` on PATH, checked with fs so no shell or `which` is needed. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here: try the next directory
    }
  }
  return null;
}

/** KULE_PROMETHEUS_BIN, else `prometheus` on PATH, else null. */
export function prometheusBinary(): string | null {
  return process.env.KULE_PROMETHEUS_BIN || onPath("prometheus");
}

/** promtool ships in the same package as prometheus, so look beside it first. */
function promtoolBinary(): string | null {
  const prom = prometheusBinary();
  const beside = prom ? path.join(path.dirname(prom), "promtool") : null;
  if (beside && fs.existsSync(beside)) return beside;
  return onPath("promtool");
}

/** Kule's rule files (absolute), without the promtool unit tests that live beside them. */
function ruleFiles(): string[] {
  return fs
    .readdirSync(RULES_DIR)
    .filter((f) => f.endsWith(".yml") && !f.endsWith(".test.yml"))
    .sort()
    .map((f) => path.join(RULES_DIR, f));
}

function testFiles(): string[] {
  return fs
    .readdirSync(RULES_DIR)
    .filter((f) => f.endsWith(".test.yml"))
    .sort()
    .map((f) => path.join(RULES_DIR, f));
}

/** The last lines of a log, for error messages. */
export function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * `url`; `rulesDir` is where Kule writes the rules it generates (SLO burn-rate alerts): every
 * *.yml there is loaded, on start and on POST /-/reload.
 */
export type RunningPrometheus = { url: string; rulesDir: string; stop(): Promise<void> };

/**
 * Starts Prometheus on 127.0.0.1:`port` with Kule's rules, its data and log under
 * `<dataDir>/prometheus/`, and resolves once it is ready. Resolves null when no binary is
 * installed, so the caller can say how to install it.
 */
export async function startPrometheus(opts: {
  dataDir: string;
  port: number;
  sdTargets: SdJob[];
  scrapeIntervalSeconds?: number;
  /** An Alertmanager's URL: firing alerts are sent there. */
  alertmanagerUrl?: string;
}): Promise<RunningPrometheus | null> {
  const bin = prometheusBinary();
  if (!bin) return null;
  // Prometheus would log "address already in use" and exit; a clear message up front is kinder,
  // and it stops us from mistaking someone else's server for ours when /-/ready answers.
  if (!(await portFree(opts.port))) {
    throw new Error(`cannot start Prometheus: port ${opts.port} on 127.0.0.1 is already in use (stop what listens there or pick another port)`);
  }

  const dir = path.join(path.resolve(opts.dataDir), "prometheus");
  fs.mkdirSync(path.join(dir, "data"), { recursive: true });
  const rulesDir = path.join(dir, "rules");
  fs.mkdirSync(rulesDir, { recursive: true });
  const configFile = path.join(dir, "prometheus.yml");
  // The glob matches nothing until the app writes its first generated file; Prometheus accepts that.
  fs.writeFileSync(configFile, prometheusConfig({ scrapeIntervalSeconds: opts.scrapeIntervalSeconds ?? 5, sdTargets: opts.sdTargets, ruleFiles: [...ruleFiles(), path.join(rulesDir, "*.yml")], alertmanagers: opts.alertmanagerUrl ? [new URL(opts.alertmanagerUrl).host] : [] }));
  const logFile = path.join(dir, "prometheus.log");

  const log = fs.openSync(logFile, "w"); // one run per log, so its tail in an error is about this run
  const child = spawn(
    bin,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${opts.port}`,
      "--web.enable-lifecycle", // lets callers POST /-/reload after rewriting the config
      "--storage.tsdb.retention.time=2d",
    ],
    { stdio: ["ignore", log, log] },
  );
  fs.closeSync(log); // the child holds its own copy of the descriptor

  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let exitInfo: string | null = null;
  child.once("exit", (code, signal) => (exitInfo = `exited (${signal ?? code})`));
  const spawnError = new Promise<never>((_, reject) => child.once("error", (e) => reject(new Error(`cannot run ${bin}: ${e.message}`))));
  spawnError.catch(() => {}); // observed below; keeps an early error from being "unhandled"

  // Do not leave a Prometheus behind when the caller exits without stopping it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);

  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM"); // Prometheus flushes its head block and exits cleanly on SIGTERM
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };

  const url = `http://127.0.0.1:${opts.port}`;
  try {
    await Promise.race([waitReady(`${url}/-/ready`, 20_000, () => exitInfo), spawnError]);
  } catch (e) {
    await stop();
    throw new Error(`Prometheus did not become ready: ${(e as Error).message}\n--- ${logFile} (tail) ---\n${tail(logFile)}`);
  }
  return { url, rulesDir, stop };
}

/** Polls /-/ready until it answers 200 (it answers 503 while the TSDB is loading). */
export async function waitReady(readyUrl: string, timeoutMs: number, exited: () => string | null): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(`it ${gone}`);
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${readyUrl} not ready within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `promtool check rules` on Kule's rule files, then `promtool test rules` on every *.test.yml
 * beside them. Output goes to the terminal; throws when promtool is missing or anything fails.
 */
export function promtoolTestRules(): void {
  const promtool = promtoolBinary();
  if (!promtool) throw new Error(`promtool not found: ${INSTALL_HINT}`);
  const run = (args: string[]) => {
    try {
      execFileSync(promtool, args, { stdio: "inherit" });
    } catch {
      throw new Error(`promtool ${args[0]} ${args[1]} failed (see its output above)`);
    }
  };
  run(["check", "rules", ...ruleFiles()]);
  const tests = testFiles();
  if (tests.length) run(["test", "rules", ...tests]);
  // The generated SLO rules: written from a fixture of SLOs with the production windows, then
  // checked and unit-tested with the hand-written cases beside the fixture.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kule-slo-rules-"));
  try {
    fs.writeFileSync(path.join(tmp, "slo-rules.yml"), generateSloRules(PROMTOOL_FIXTURE_SLOS));
    fs.copyFileSync(path.join(SLO_PROMTOOL_DIR, "slo-rules.test.yml"), path.join(tmp, "slo-rules.test.yml"));
    run(["check", "rules", path.join(tmp, "slo-rules.yml")]);
    run(["test", "rules", path.join(tmp, "slo-rules.test.yml")]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
