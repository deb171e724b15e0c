"use client";

import { useTranslations } from "use-intl";
import { useClusterActions } from "./use-cluster-actions";
import type { ClusterSummary } from "./types";

/** What the simulator has been told to break, and the button that heals it all. */
export function FaultPanel({ summary }: { summary: ClusterSummary }) {
  const { clear, busy } = useClusterActions();
  const t = useTranslations("cluster.faults");
  const f = summary.faults;
  const errorShares = Object.entries(f?.versionErrorShare ?? {}).filter(([, share]) => share > 0);
  const none = !f || (f.xids.length === 0 && f.slowReplicas.length === 0 && f.downNodes.length === 0 && errorShares.length === 0);
  return (
    <div className="panel" role="region" aria-label={t("region")}>
      <h2>{t("title")}</h2>
      {!f ? (
        <p className="muted">{t("unknown")}</p>
      ) : none ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <ul>
          {f.xids.map((x) => (
            <li key={x.gpuUuid}>
              <span className="badge badge-danger">XID {x.xid}</span> {t("xidOn", { host: x.hostname })} <span className="muted mono">{x.gpuUuid}</span>
            </li>
          ))}
          {f.downNodes.map((h) => (
            <li key={h}>
              <span className="badge badge-danger">{t("down")}</span> {t("node", { host: h })}
            </li>
          ))}
          {f.slowReplicas.map((s) => (
            <li key={s.id}>
              <span className="badge badge-warn">{t("slow", { factor: String(s.factor) })}</span> {t("replica")} {summary.faultReplicas[s.id] ?? <span className="mono">{s.id}</span>}
            </li>
          ))}
          {errorShares.map(([versionId, share]) => (
            <li key={versionId}>
              <span className="badge badge-warn">{t("errors", { pct: String(Math.round(share * 100)) })}</span> {t("endpointVersion")} <span className="mono">{versionId}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        <button type="button" disabled={busy || !f} onClick={() => clear.mutate()}>
          {t("clearAll")}
        </button>
      </div>
    </div>
  );
}
