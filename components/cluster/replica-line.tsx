"use client";

import { useTranslations } from "use-intl";
import { StateBadge } from "@/components/ui/state-badge";
import { useClusterActions } from "./use-cluster-actions";
import { useNow } from "@/components/ui/use-now";
import type { ReplicaView } from "./types";
import styles from "./cluster.module.css";


function LoadingBadge({ expectedReadyAt }: { expectedReadyAt: Date | null }) {
  const now = useNow();
  const t = useTranslations("cluster.replica");
  const secs = expectedReadyAt && now ? Math.max(0, Math.ceil((new Date(expectedReadyAt).getTime() - now) / 1000)) : null;
  return <span className="badge badge-warn">{secs === null ? t("loading") : t("loadingFor", { seconds: String(secs) })}</span>;
}

/** One replica: endpoint, version, state (and why it failed), with the operator's fault buttons. */
export function ReplicaLine({ replica: r, where, canWrite, faults = true }: { replica: ReplicaView; where?: string; canWrite: boolean; faults?: boolean }) {
  const { fault, stop, busy } = useClusterActions();
  const t = useTranslations("cluster.replica");
  const name = `${r.endpoint} ${r.version}`;
  const live = r.state === "ready" || r.state === "loading";
  return (
    <div className={styles.replica}>
      <div>
        <code>{r.endpoint}</code> <span className="muted">{r.version}</span>
        {where && <span className="muted"> · {where}</span>}{" "}
        {r.state === "loading" ? (
          <LoadingBadge expectedReadyAt={r.expectedReadyAt} />
        ) : (
          <StateBadge state={r.state} title={r.reason ?? undefined} />
        )}
        {r.state === "failed" && r.reason && <small className={styles.reason}>{r.reason}</small>}
        {r.state === "pending" && r.reason && <small className="muted"> {r.reason}</small>}
      </div>
      {canWrite && (
        <div className={styles.buttons}>
          {live && faults && (
            <>
              <button type="button" className="danger" disabled={busy} onClick={() => confirm(t("killConfirm", { name })) && fault.mutate({ type: "kill-replica", replicaId: r.id })}>
                {t("kill")}
              </button>
              <button type="button" disabled={busy} onClick={() => fault.mutate({ type: "slow-replica", replicaId: r.id, factor: 5 })}>
                {t("slow")}
              </button>
            </>
          )}
          <button type="button" className="danger" disabled={busy} onClick={() => confirm(t("stopConfirm", { name })) && stop.mutate({ replicaId: r.id, drainSeconds: 0 })}>
            {t("stop")}
          </button>
        </div>
      )}
    </div>
  );
}
