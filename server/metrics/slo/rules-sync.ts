import fs from "node:fs/promises";
import path from "node:path";
import type { PrismaClient } from "../../db/generated/client.ts";
import type { PrometheusClient } from "../prometheus-client.ts";
import { DEFAULT_SLO_RULE_OPTIONS, generateSloRules, type EndpointSlo } from "./slo-rules.ts";

export const SLO_RULES_FILE = "kule-slo.yml";

export type SloRulesSync =
  | { state: "off"; message: string }
  | { state: "unchanged" }
  | { state: "applied" }
  | { state: "failed"; message: string };

export async function endpointSlos(db: PrismaClient): Promise<EndpointSlo[]> {
  const rows = await db.endpoint.findMany({ where: { retiredAt: null }, select: { slug: true, sloAvailabilityPct: true, sloP99LatencyMs: true, sloTtftMs: true }, orderBy: { slug: "asc" } });
  return rows.map((r) => ({ slug: r.slug, availabilityPct: Number(r.sloAvailabilityPct), p99LatencyMs: r.sloP99LatencyMs, ttftMs: r.sloTtftMs }));
}

// One sync at a time per process: two writers racing could leave the older SLOs on disk last.
let chain: Promise<unknown> = Promise.resolve();
/** Per rules file, the text Prometheus last accepted a reload of: an unchanged file whose reload failed is retried. */
const reloaded = new Map<string, string>();

/**
 * Writes the SLO rules generated from the database where this Prometheus loads them, and asks it
 * to reload (POST /-/reload, --web.enable-lifecycle) when the file changed. A reload Prometheus
 * refuses (it keeps its old rules then) is reported, never thrown: an SLO edit is saved either way.
 */
export function syncSloRules({ db, prometheus }: { db: PrismaClient; prometheus: PrometheusClient }): Promise<SloRulesSync> {
  const run = async (): Promise<SloRulesSync> => {
    const target = prometheus.rules;
    if (!target || !prometheus.baseUrl) return { state: "off", message: "No Prometheus rules directory is configured (KULE_PROMETHEUS_RULES_DIR)." };
    const text = generateSloRules(await endpointSlos(db), target.options ?? DEFAULT_SLO_RULE_OPTIONS);
    const file = path.join(target.dir, SLO_RULES_FILE);
    const current = await fs.readFile(file, "utf8").catch(() => null);
    if (current === text && reloaded.get(file) === text) return { state: "unchanged" };
    if (current !== text) {
      // Write then rename, so Prometheus never loads half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.mkdir(target.dir, { recursive: true });
      await fs.writeFile(tmp, text);
      await fs.rename(tmp, file);
    }
    try {
      const res = await fetch(`${prometheus.baseUrl}/-/reload`, { method: "POST", signal: AbortSignal.timeout(5000) });
      if (!res.ok) return { state: "failed", message: `Prometheus refused the new rules (${res.status}): ${(await res.text()).trim().slice(0, 500)}` };
    } catch {
      // The file is in place: Prometheus loads it when it starts again.
      return { state: "failed", message: `Prometheus at ${prometheus.baseUrl} does not answer; it will load the rules when it starts.` };
    }
    reloaded.set(file, text);
    return { state: "applied" };
  };
  const next = chain.then(run, run);
  chain = next.catch(() => {});
  return next;
}

/**
 * Keeps the rules file in step with the database, whoever changed the SLOs (another app
 * instance, a seed): checks now and every `everyMs`. Returns a stop function.
 */
export function startSloRulesSync(deps: { db: PrismaClient; prometheus: PrometheusClient }, everyMs = 30_000): () => void {
  if (!deps.prometheus.rules) return () => {};
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    let ok = true;
    try {
      const r = await syncSloRules(deps);
      if (r.state === "failed") {
        ok = false;
        console.warn(`[slo-rules] ${r.message}`);
      }
    } catch (e) {
      ok = false;
      console.error("[slo-rules] sync failed", e);
    }
    // A Prometheus that is still starting gets asked again soon, not in `everyMs`.
    if (!stopped) timer = setTimeout(() => void tick(), ok ? everyMs : Math.min(everyMs, 3000));
    timer?.unref();
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
