import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "../db/generated/client.ts";
import { env } from "../env.ts";
import { InvalidInputError } from "../errors.ts";
import { sdCredentialsFile } from "../metrics/prometheus/sd-token.ts";
import { alertmanagerConfig, type AlertmanagerConfigOptions, type ReceiverRow } from "./alertmanager-config.ts";
import { ALERT_WEBHOOK_TOKEN_FILE } from "./webhook-token.ts";

/** Where Kule's alertmanager.yml goes and which Alertmanager reloads it; null = alerts are off. */
export interface AlertmanagerTarget {
  url: string;
  configFile: string;
  options: AlertmanagerConfigOptions;
}

export type AlertmanagerSync = { state: "off"; message: string } | { state: "unchanged" } | { state: "applied" } | { state: "failed"; message: string };

/** The app's own Alertmanager, from the environment (the demo sets it). */
export function appAlertmanager(): AlertmanagerTarget | null {
  if (!env.KULE_ALERTMANAGER_URL || !env.KULE_ALERTMANAGER_CONFIG_FILE) return null;
  return {
    url: env.KULE_ALERTMANAGER_URL,
    configFile: env.KULE_ALERTMANAGER_CONFIG_FILE,
    options: {
      kuleWebhookUrl: env.KULE_ALERT_WEBHOOK_URL ?? `http://127.0.0.1:${env.PORT}/api/alerts/webhook`,
      kuleTokenFile: sdCredentialsFile(env.KULE_DATA_DIR, env.KULE_ALERT_WEBHOOK_TOKEN, ALERT_WEBHOOK_TOKEN_FILE),
      groupWait: "5s",
      groupInterval: "30s",
    },
  };
}

/**
 * `amtool check-config` on a rendered config; resolves null when it passes, else amtool's reason.
 * The check runs on a file of its own, so a bad config never reaches Alertmanager's.
 */
export async function checkAlertmanagerConfig(text: string): Promise<string | null> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kule-am-check-"));
  const file = path.join(dir, "alertmanager.yml");
  try {
    await fs.writeFile(file, text);
    return await new Promise<string | null>((resolve, reject) => {
      execFile(env.KULE_AMTOOL_BIN, ["check-config", file], { timeout: 10_000 }, (err, stdout, stderr) => {
        if (!err) return resolve(null);
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return reject(new Error(`amtool is not installed (${env.KULE_AMTOOL_BIN}): apt-get install -y prometheus-alertmanager, or set KULE_AMTOOL_BIN`));
        const out = `${stdout}\n${stderr}`;
        // amtool prints "FAILED: <reason>" (and a line for the file): the reason is what an operator needs.
        const reason = /FAILED:\s*(.+)/.exec(out)?.[1] ?? out.trim().split("\n").pop() ?? "amtool refused the config";
        resolve(reason.replaceAll(file, "alertmanager.yml").trim());
      });
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function receiverRows(db: Pick<PrismaClient, "alertReceiver">): Promise<ReceiverRow[]> {
  return db.alertReceiver.findMany({ select: { name: true, kind: true, settings: true, endpointSlugs: true, severities: true }, orderBy: { name: "asc" } });
}

/** Renders and checks a config; throws InvalidInputError naming amtool's reason when it refuses. */
export async function renderCheckedConfig(receivers: ReceiverRow[], target: AlertmanagerTarget | null, field = "settings"): Promise<string> {
  const options = target?.options ?? { kuleWebhookUrl: "http://127.0.0.1/api/alerts/webhook", kuleTokenFile: "/dev/null" };
  const text = alertmanagerConfig(receivers, options);
  const refused = await checkAlertmanagerConfig(text);
  if (refused) throw new InvalidInputError(field, `Alertmanager would refuse this configuration: ${refused}`);
  return text;
}

let chain: Promise<unknown> = Promise.resolve();

/**
 * Writes the checked config where Alertmanager reads it and asks it to reload (POST /-/reload).
 * One sync at a time per process, so an older receiver set never lands last.
 */
export function syncAlertmanagerConfig(db: PrismaClient, target: AlertmanagerTarget | null = appAlertmanager()): Promise<AlertmanagerSync> {
  const run = async (): Promise<AlertmanagerSync> => {
    if (!target) return { state: "off", message: "No Alertmanager is configured (KULE_ALERTMANAGER_URL, KULE_ALERTMANAGER_CONFIG_FILE)." };
    const text = await renderCheckedConfig(await receiverRows(db), target);
    const current = await fs.readFile(target.configFile, "utf8").catch(() => null);
    if (current === text) return { state: "unchanged" };
    const tmp = `${target.configFile}.${process.pid}.tmp`;
    await fs.mkdir(path.dirname(target.configFile), { recursive: true });
    // It holds the SMTP receivers' passwords: readable by Kule's user (and Alertmanager, run as it) only.
    await fs.writeFile(tmp, text, { mode: 0o600 });
    await fs.chmod(tmp, 0o600);
    await fs.rename(tmp, target.configFile);
    try {
      const res = await fetch(`${target.url}/-/reload`, { method: "POST", signal: AbortSignal.timeout(5000) });
      if (!res.ok) return { state: "failed", message: `Alertmanager refused the new configuration (${res.status}): ${(await res.text()).trim().slice(0, 500)}` };
    } catch {
      return { state: "failed", message: `Alertmanager at ${target.url} does not answer; it will read the configuration when it starts.` };
    }
    return { state: "applied" };
  };
  const next = chain.then(run, run);
  chain = next.catch(() => {});
  return next;
}

/** Renders the receivers into Alertmanager's config on start (retrying while it is not up yet). Returns a stop function. */
export function startAlertmanagerSync(db: PrismaClient, target: AlertmanagerTarget | null = appAlertmanager()): () => void {
  if (!target) return () => {};
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    const r = await syncAlertmanagerConfig(db, target).catch((e: unknown) => ({ state: "failed" as const, message: e instanceof Error ? e.message : String(e) }));
    if (r.state !== "failed") return;
    console.warn(`[alertmanager] ${r.message}`);
    if (!stopped) timer = setTimeout(() => void tick(), 3000);
    timer?.unref();
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
