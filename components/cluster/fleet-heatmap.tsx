"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { heatColor, heatLabel, nodeHeat } from "./heat";
import type { Messages } from "@/server/shared/i18n/messages";
import { useMetricsOffWhy } from "@/components/metrics/chart-text";
import styles from "./cluster.module.css";

/**
 * The fleet at a glance: one cell per GPU, grouped by pool and node, coloured by utilization from
 * dcgm-exporter. A cell opens its GPU's charts; a node's name opens the node below.
 */
type State = keyof Messages["common"]["states"];

export function FleetHeatmap({ onOpenNode }: { onOpenNode: (hostname: string) => void }) {
  const trpc = useTRPC();
  const heat = useQuery(trpc.cluster.heatmap.queryOptions(undefined, { ...PANEL_QUERY, refetchInterval: 5000 }));
  const t = useTranslations("cluster.heat");
  const tc = useTranslations("common.states");
  const why = useMetricsOffWhy();
  const gate = queryGate(heat, t("what"));
  if (gate || !heat.data) return <div className="panel">{gate}</div>;
  const d = heat.data;
  return (
    <div className="panel" role="region" aria-label={t("region")}>
      <h2>{t("title")}</h2>
      {!d.metrics.available && (
        <p className="form-error" role="note">
          <b>{t("metricsOff")}</b> {why(d.metrics.reason)}
        </p>
      )}
      {d.pools.map((p) => (
        <div key={p.id} className={styles.heatPool}>
          <span className="muted">
            {p.name} <small>{p.region}</small>
          </span>
          <div className={styles.heatNodes}>
            {p.nodes.map((n) => {
              const { mean } = nodeHeat(n.util);
              return (
                <div key={n.hostname} className={`${styles.heatNode} ${n.status !== "ready" ? styles.heatDown : ""}`}>
                  <button type="button" className={styles.heatNodeName} onClick={() => onOpenNode(n.hostname)} title={`${n.hostname}: ${tc.has(n.status as State) ? tc(n.status as State) : n.status}${n.cordoned ? t("cordoned") : ""}${mean === null ? "" : t("busyAvg", { pct: String(Math.round(mean)) })}`}>
                    {n.hostname}
                  </button>
                  <span className={styles.heatCells}>
                    {n.util.map((u, i) => (
                      <Link key={i} href={`/cluster/gpus/${encodeURIComponent(n.uuids[i]!)}`} aria-label={t("chartsOf", { label: heatLabel(n.hostname, i, u, t) })} title={heatLabel(n.hostname, i, u, t)} className={styles.heatCell} style={{ background: heatColor(u) }} prefetch={false} />
                    ))}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      ))}
      <div className="muted" style={{ fontSize: 12, marginTop: 6 }}>
        <span className={styles.heatCell} style={{ background: heatColor(0), display: "inline-block", verticalAlign: "middle" }} /> {t("idle")}{" "}
        <span className={styles.heatCell} style={{ background: heatColor(50), display: "inline-block", verticalAlign: "middle" }} /> 50%{" "}
        <span className={styles.heatCell} style={{ background: heatColor(100), display: "inline-block", verticalAlign: "middle" }} /> 100% · {t("legend")}
      </div>
    </div>
  );
}
