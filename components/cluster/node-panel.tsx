"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { StateBadge } from "@/components/ui/state-badge";
import { GpuCard } from "./gpu-card";
import { GpuGroups } from "./gpu-groups";
import { ReplicaLine } from "./replica-line";
import { MigStateBadge } from "./mig-state";
import { useClusterActions } from "./use-cluster-actions";
import { regionBadge } from "./types";
import styles from "./cluster.module.css";

/** One node in full, loaded when it is opened: its GPUs, MIG layouts and replicas, with the operator's actions. */
export function NodePanel({ hostname, canWrite, faults }: { hostname: string; canWrite: boolean; faults: boolean }) {
  const trpc = useTRPC();
  const node = useQuery(trpc.cluster.node.queryOptions({ hostname }, { ...PANEL_QUERY, refetchInterval: 2000 }));
  const { fault, cordon, busy } = useClusterActions();
  const t = useTranslations("cluster.node");
  const tn = useTranslations("cluster.nodes");
  const gate = queryGate(node, hostname);
  if (gate || !node.data) return <div className={styles.detail}>{gate}</div>;
  const n = node.data;
  return (
    <div className={styles.detail} role="region" aria-label={n.hostname}>
      <div className={styles.nodeHead}>
        <div>
          <h3 className={styles.hostname}>
            <span className="mono">{n.hostname}</span> <span className={regionBadge(n.region)}>{n.region}</span> <StateBadge state={n.status} />
            {n.cordoned && <span className="badge badge-warn">{tn("cordoned")}</span>} <MigStateBadge mig={n.mig} />{" "}
            {n.gpus.length > 0 && (
              <Link href={`/cluster/nodes/${encodeURIComponent(n.hostname)}`} style={{ fontSize: 13, fontWeight: 400 }}>
                {t("gpuCharts")}
              </Link>
            )}
          </h3>
          <span className="muted">
            {n.pool} · {n.cpuModel} · {t("cores", { count: String(n.cpuCores) })} · {n.gpus.length ? t("gpus", { count: n.gpus.length }) : t("cpuOnly")}
          </span>
        </div>
        {canWrite && (
          <div className={styles.buttons}>
            <button type="button" disabled={busy} onClick={() => cordon.mutate({ nodeId: n.id, cordoned: !n.cordoned })}>
              {n.cordoned ? t("uncordon") : t("cordon")}
            </button>
            {faults &&
              (n.status === "down" ? (
                <button type="button" disabled={busy} onClick={() => fault.mutate({ type: "node-status", nodeId: n.id, status: "ready" })}>
                  {t("bringUp")}
                </button>
              ) : (
                <button type="button" className="danger" disabled={busy} onClick={() => confirm(t("takeDownConfirm", { host: n.hostname })) && fault.mutate({ type: "node-status", nodeId: n.id, status: "down" })}>
                  {t("takeDown")}
                </button>
              ))}
          </div>
        )}
      </div>
      {n.cpuReplicas.length > 0 && (
        <div className={styles.cpu}>
          <b>{t("onCpu")}</b>
          {n.cpuReplicas.map((r) => (
            <ReplicaLine key={r.id} replica={r} canWrite={canWrite} faults={faults} />
          ))}
        </div>
      )}
      <GpuGroups node={n} canWrite={canWrite} faults={faults} />
      {n.gpus.length > 0 && (
        <div className={styles.gpus}>
          {n.gpus.map((g) => (
            <GpuCard key={g.id} gpu={g} node={n} canWrite={canWrite} faults={faults} />
          ))}
        </div>
      )}
    </div>
  );
}
