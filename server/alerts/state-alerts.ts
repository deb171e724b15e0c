/**
 * Alerts about what Kule's own database knows — a tenant's budget at 80% and 100%, a replica that
 * failed, a MIG change that failed — sent the way Prometheus sends its alerts: every active one is
 * posted to Alertmanager's API each pass with an end a few passes ahead, so one that stops being
 * sent resolves by itself. They then take the same path as every alert (Kule's webhook, receivers).
 */
import type { PrismaClient } from "../db/generated/client.ts";
import { spentThisMonth } from "../usage/spend.ts";
import type { AlertmanagerTarget } from "./config-sync.ts";

export interface PostedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface StateSnapshot {
  budgets: { tenant: string; name: string; spent: number; budget: number; currency: string; hardCap: boolean }[];
  failedReplicas: { id: string; endpoint: string; version: string; node: string | null; reason: string | null }[];
  failedMig: { hostname: string; config: string | null; reason: string | null }[];
  /** Gateways that refuse calls because they do not hold the call log's current key (server/gateway/key-check.ts). */
  gatewayKeys?: { instance: string; reason: string }[];
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

/** The alerts a snapshot calls for. Pure. */
export function stateAlerts(s: StateSnapshot): PostedAlert[] {
  const out: PostedAlert[] = [];
  for (const b of s.budgets) {
    const share = b.budget > 0 ? b.spent / b.budget : 0;
    const money = `${b.spent.toFixed(2)} of ${b.budget.toFixed(2)} ${b.currency}`;
    // The values alone too, for Kule's pages to word the alert in their reader's language (server/alerts/alert-text.ts).
    const values = { tenant_name: b.name, share: String(share), spent: b.spent.toFixed(2), budget: b.budget.toFixed(2), currency: b.currency };
    if (share >= 1) {
      out.push({
        labels: { alertname: "KuleTenantBudgetSpent", severity: "ticket", tenant: b.tenant },
        annotations: { ...values, summary: `${b.name} has spent its monthly budget (${pct(share)})`, description: `${b.name} has been charged ${money} this month.${b.hardCap ? " Its hard cap now refuses its calls (429)." : " It has no hard cap: calls go on."}` },
      });
    } else if (share >= 0.8) {
      out.push({
        labels: { alertname: "KuleTenantBudget80", severity: "warning", tenant: b.tenant },
        annotations: { ...values, summary: `${b.name} has spent ${pct(share)} of its monthly budget`, description: `${b.name} has been charged ${money} this month.` },
      });
    }
  }
  for (const r of s.failedReplicas) {
    out.push({
      labels: { alertname: "KuleReplicaFailed", severity: "warning", endpoint: r.endpoint, kule_replica: r.id, kule_version: r.version, ...(r.node ? { hostname: r.node } : {}) },
      annotations: { summary: `A replica of ${r.endpoint} ${r.version} failed${r.node ? ` on ${r.node}` : ""}`, description: r.reason ?? "The engine stopped without a reason." },
    });
  }
  for (const m of s.failedMig) {
    out.push({
      labels: { alertname: "KuleMigChangeFailed", severity: "page", hostname: m.hostname },
      annotations: { summary: `The MIG change on ${m.hostname} failed`, description: `${m.config ? `Layout ${m.config}: ` : ""}${m.reason ?? "the MIG manager reported a failure"}. The node's GPUs may not match what Kule placed on them.` },
    });
  }
  for (const g of s.gatewayKeys ?? []) {
    out.push({
      labels: { alertname: "KuleGatewayKeyMismatch", severity: "page", instance: g.instance },
      annotations: { summary: `Gateway ${g.instance} refuses calls: it does not hold the call log's current key`, description: `${g.reason}. Its calls are answered 503 until it holds the key PostgreSQL records as current (see /kvkk, keys at rest).` },
    });
  }
  return out;
}

/** A failed replica is worth an alert for a day; after that it is history, not news. */
const REPLICA_NEWS_MS = 86_400_000;

export async function stateSnapshot(db: PrismaClient, now = new Date()): Promise<StateSnapshot> {
  const [tenants, replicas, nodes, gateways] = await Promise.all([
    db.tenant.findMany({ where: { monthlyBudget: { not: null } }, select: { id: true, slug: true, name: true, monthlyBudget: true, budgetHardCap: true, pricePlan: { select: { currency: true } } } }),
    db.replica.findMany({
      where: { state: "failed", updatedAt: { gte: new Date(now.getTime() - REPLICA_NEWS_MS) } },
      select: { id: true, reason: true, node: { select: { hostname: true } }, endpointVersion: { select: { endpoint: { select: { slug: true } }, modelVersion: { select: { version: true } } } } },
    }),
    db.node.findMany({ where: { migState: "failed" }, select: { hostname: true, migConfig: true, migReason: true } }),
    // Reports refresh at least every 30 s; older ones are gateways gone, not refusing.
    db.gatewayKeyReport.findMany({ where: { refusing: { not: null }, reportedAt: { gte: new Date(now.getTime() - 120_000) } }, select: { instance: true, refusing: true } }),
  ]);
  const spent = tenants.length ? await spentThisMonth(db, tenants.map((t) => t.id)) : new Map();
  return {
    budgets: tenants.map((t) => ({ tenant: t.slug, name: t.name, spent: Number(spent.get(t.id) ?? 0), budget: Number(t.monthlyBudget), currency: t.pricePlan?.currency ?? "TRY", hardCap: t.budgetHardCap })),
    failedReplicas: replicas.map((r) => ({ id: r.id, endpoint: r.endpointVersion.endpoint.slug, version: r.endpointVersion.modelVersion.version, node: r.node?.hostname ?? null, reason: r.reason })),
    failedMig: nodes.map((n) => ({ hostname: n.hostname, config: n.migConfig, reason: n.migReason })),
    gatewayKeys: gateways.map((g) => ({ instance: g.instance, reason: g.refusing! })),
  };
}

/** Posts alerts to Alertmanager as Prometheus does, each ending `ttlMs` from now unless posted again. */
export async function postAlerts(target: AlertmanagerTarget, alerts: PostedAlert[], ttlMs: number, now = new Date()): Promise<void> {
  if (!alerts.length) return;
  const endsAt = new Date(now.getTime() + ttlMs).toISOString();
  const body = alerts.map((a) => ({ ...a, labels: { ...a.labels, kule_source: "kule" }, endsAt }));
  const res = await fetch(`${target.url}/api/v2/alerts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`Alertmanager refused Kule's alerts (${res.status}): ${(await res.text()).slice(0, 300)}`);
}

/** Checks every `everyMs` and posts what is active; an alert not posted again ends after three passes. */
export function startStateAlerts(db: PrismaClient, target: AlertmanagerTarget | null, everyMs = 30_000): () => void {
  if (!target) return () => {};
  const tick = async () => {
    try {
      await postAlerts(target, stateAlerts(await stateSnapshot(db)), everyMs * 3);
    } catch (e) {
      console.warn(`[alerts] ${(e as Error).message}`);
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
