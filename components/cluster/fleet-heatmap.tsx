"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import type { ClusterView } from "./types";
import styles from "./cluster.module.css";

/** Utilization as colour: pale when idle, through amber, to red when saturated. */
function heat(util: number | null): string {
  if (util === null) return "#e2e6ec";
  const u = Math.max(0, Math.min(100, util)) / 100;
  return `hsl(${Math.round(200 - 200 * u)}, ${Math.round(55 + 25 * u)}%, ${Math.round(88 - 40 * u)}%)`;
}

/** Every GPU of the cluster at once, grouped by node pool, coloured by utilization from dcgm-exporter. */
export function FleetHeatmap({ view }: { view: ClusterView }) {
  const trpc = useTRPC();
  const fleet = useQuery(trpc.metrics.gpuFleet.queryOptions(undefined, { refetchInterval: 5000 }));
  if (!fleet.data) return null;
  if (!fleet.data.available) {
    return (
      <div className="form-error" role="note" style={{ marginBottom: 18 }}>
        <b>GPU metrics are off.</b> {fleet.data.reason}
      </div>
    );
  }
  const gpus = fleet.data.gpus;
  return (
    <div className="panel" role="region" aria-label="GPU utilization heat map">
      <h2>GPU utilization</h2>
      {view.pools
        .filter((p) => p.nodes.some((n) => n.gpus.length))
        .map((p) => (
          <div key={p.id} className={styles.heatPool}>
            <span className="muted">{p.name}</span>
            <div className={styles.heatCells}>
              {p.nodes.flatMap((n) =>
                n.gpus.map((g) => {
                  const m = gpus[g.uuid];
                  const util = m?.utilPct ?? null;
                  const label = `${n.hostname} GPU ${g.index}: ${util === null ? "no data" : `${util}% busy`}`;
                  const detail = m ? ` · ${m.fbUsedMiB ?? "?"} MiB used, ${m.fbFreeMiB ?? "?"} MiB free · ${m.powerW?.toFixed(0) ?? "?"} W · ${m.tempC ?? "?"} °C` : "";
                  return <span key={g.id} role="img" aria-label={label} title={label + detail} className={styles.heatCell} style={{ background: heat(util) }} />;
                }),
              )}
            </div>
          </div>
        ))}
      <div className="muted" style={{ fontSize: 12, marginTop: 6 }}>
        <span className={styles.heatCell} style={{ background: heat(0), display: "inline-block", verticalAlign: "middle" }} /> idle{" "}
        <span className={styles.heatCell} style={{ background: heat(50), display: "inline-block", verticalAlign: "middle" }} /> 50%{" "}
        <span className={styles.heatCell} style={{ background: heat(100), display: "inline-block", verticalAlign: "middle" }} /> 100% · grey: no data
      </div>
    </div>
  );
}
