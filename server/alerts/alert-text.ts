import type { Messages } from "../shared/i18n/messages.ts";

type Key = keyof Messages["alerts"]["summary"];
export interface AlertText {
  key: Key;
  values: Record<string, string | number>;
}

/**
 * The summary of one of Kule's own alerts (its rules, its state alerts, the SLO burn alerts) as a
 * message key and values, for the page to word in its reader's language. Alertmanager's
 * receivers (Slack, e-mail) get the English annotations; an alert Kule does not know, or one
 * stored before its values were, returns null and the page shows the summary as delivered.
 */
export function alertText(name: string, labels: Record<string, string>, annotations: Record<string, string>): AlertText | null {
  const l = labels;
  const a = annotations;
  const num = (s: string | undefined) => (s !== undefined && s !== "" && Number.isFinite(Number(s)) ? Number(s) : null);
  const value = num(a.value);
  if (l.slo && l.burn_rate && l.endpoint) return { key: "sloBurn", values: { endpoint: l.endpoint, slo: l.slo, rate: Number(l.burn_rate) } };
  switch (name) {
    case "KuleTenantBudgetSpent":
    case "KuleTenantBudget80": {
      const share = num(a.share);
      if (share === null || !l.tenant) return null;
      return { key: name === "KuleTenantBudgetSpent" ? "budgetSpent" : "budget80", values: { tenant: a.tenant_name ?? l.tenant, share } };
    }
    case "KuleReplicaFailed":
      if (!l.endpoint || !l.kule_version) return null;
      return l.hostname ? { key: "replicaFailedOn", values: { endpoint: l.endpoint, version: l.kule_version, node: l.hostname } } : { key: "replicaFailed", values: { endpoint: l.endpoint, version: l.kule_version } };
    case "KuleMigChangeFailed":
      return l.hostname ? { key: "migChangeFailed", values: { node: l.hostname } } : null;
    case "KuleGpuXidError":
      return value !== null && l.hostname ? { key: "gpuXid", values: { xid: value, gpu: l.gpu ?? "?", node: l.hostname } } : null;
    case "KuleGpuTooHot":
      return value !== null && l.hostname ? { key: "gpuTooHot", values: { celsius: value, gpu: l.gpu ?? "?", node: l.hostname } } : null;
    case "KuleReplicaDown":
      return l.kule_replica && l.kule_endpoint ? { key: "replicaDown", values: { replica: l.kule_replica, endpoint: l.kule_endpoint } } : null;
    case "KuleKvCacheSaturated":
      return value !== null && l.kule_replica ? { key: "kvCacheSaturated", values: { replica: l.kule_replica, share: value } } : null;
    default:
      return null;
  }
}
