"use client";

import Link from "next/link";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { MigEditor } from "./mig-editor";
import { MIG_SLOTS, memorySlotsOf } from "./mig";
import { ReplicaLine } from "./replica-line";
import { useClusterActions } from "./use-cluster-actions";
import type { GpuView, NodeView } from "./types";
import styles from "./cluster.module.css";

/** GiB with at most one decimal, in the page's language. */
function useGib() {
  const fmt = useFormat();
  return (n: number) => `${fmt.number(n, 1)} GiB`;
}

/** One GPU: model, memory, XID, its MIG slots and the replicas on it, with the operator's actions. */
export function GpuCard({ gpu, node, canWrite, faults = true }: { gpu: GpuView; node: NodeView; canWrite: boolean; faults?: boolean }) {
  const { fault, busy } = useClusterActions();
  const [editing, setEditing] = useState(false);
  const t = useTranslations("cluster.gpu");
  const gib = useGib();
  const label = t("label", { index: String(gpu.index), host: node.hostname });
  const migReplicas = gpu.migInstances.flatMap((m) => m.replicas.map((r) => ({ r, where: `${m.profile}@${m.startSlot}` })));
  return (
    <div role="group" aria-label={label} className={`${styles.gpu} ${gpu.xid > 0 ? styles.gpuXid : ""}`}>
      <div className={styles.gpuHead}>
        <Link href={`/cluster/gpus/${encodeURIComponent(gpu.uuid)}`} aria-label={t("chartsOf", { label })}>
          <b>GPU {gpu.index}</b>
        </Link>
        <span className="muted">
          {gpu.modelName} · {gib(gpu.memoryGiB)}
        </span>
        {gpu.xid > 0 && <span className="badge badge-danger">XID {gpu.xid}</span>}
      </div>
      <MemorySplit gpu={gpu} />
      {gpu.migInstances.length > 0 ? <MigBar gpu={gpu} /> : gpu.migCapable && <small className="muted">{t("migOff")}</small>}
      {gpu.group ? (
        <small className={styles.inGroup}>{t("inGroup", { name: gpu.group.name, split: gpu.group.split, rank: String(gpu.group.rank + 1), size: String(gpu.group.size) })}</small>
      ) : gpu.replicas.length + migReplicas.length === 0 ? (
        <small className="muted">{t("noReplica")}</small>
      ) : (
        <>
          {gpu.replicas.map((r) => (
            <ReplicaLine key={r.id} replica={r} canWrite={canWrite} faults={faults} />
          ))}
          {migReplicas.map(({ r, where }) => (
            <ReplicaLine key={r.id} replica={r} where={where} canWrite={canWrite} faults={faults} />
          ))}
        </>
      )}
      {canWrite && !editing && (
        <div className={styles.buttons}>
          {faults && (
            <button type="button" className="danger" disabled={busy} onClick={() => confirm(t("raiseConfirm", { label })) && fault.mutate({ type: "gpu-xid", gpuId: gpu.id, xid: 79 })}>
              {t("raise")}
            </button>
          )}
          {gpu.migCapable && (
            <button type="button" onClick={() => setEditing(true)}>
              {t("editMig")}
            </button>
          )}
        </div>
      )}
      {editing && <MigEditor gpu={gpu} node={node} onDone={() => setEditing(false)} />}
    </div>
  );
}

/**
 * How the GPU's memory is split: model weights (of the replicas on it), KV cache and runtime
 * (the rest of what dcgm reports used), and free. Shown only when dcgm metrics are available.
 */
function MemorySplit({ gpu }: { gpu: GpuView }) {
  const trpc = useTRPC();
  const t = useTranslations("cluster.gpu");
  const gib = useGib();
  const fleet = useQuery(trpc.metrics.gpuFleet.queryOptions(undefined, { refetchInterval: 5000 }));
  const m = fleet.data?.available ? fleet.data.gpus[gpu.uuid] : undefined;
  if (!m || m.fbUsedMiB === null || m.fbFreeMiB === null) return null;
  const active = [...gpu.replicas, ...gpu.migInstances.flatMap((i) => i.replicas)].filter((r) => r.state === "ready" || r.state === "draining");
  const total = (m.fbUsedMiB + m.fbFreeMiB) / 1024;
  const used = m.fbUsedMiB / 1024;
  const weights = Math.min(used, active.reduce((s, r) => s + r.weightGiB, 0));
  const kv = Math.max(0, used - weights);
  const pct = (x: number) => `${(100 * x) / total}%`;
  const label = t("memory", { weights: gib(weights), kv: gib(kv), free: gib(total - used), busy: String(m.utilPct ?? "?") });
  return (
    <div title={label} aria-label={t("memoryOf", { index: String(gpu.index), label })} role="img">
      <div className="weights" style={{ margin: "6px 0 2px" }}>
        <span style={{ width: pct(weights), background: "#1f5fbf" }} />
        <span style={{ width: pct(kv), background: "#e08a00" }} />
      </div>
      <small className="muted">{label}</small>
    </div>
  );
}

/** The 8 memory slots as a row, each instance spanning its slots; free slots stay grey. */
function MigBar({ gpu }: { gpu: GpuView }) {
  const t = useTranslations("cluster.gpu");
  const gib = useGib();
  const used = new Set<number>();
  const instances = gpu.migInstances.map((m) => {
    const span = memorySlotsOf(gpu.memoryGiB, m.profile);
    for (let s = m.startSlot; s < m.startSlot + span; s++) used.add(s);
    return { ...m, span };
  });
  const free = [...Array(MIG_SLOTS).keys()].filter((s) => !used.has(s));
  return (
    <div className={styles.mig}>
      {instances.map((m) => {
        const who = m.replicas.map((r) => `${r.endpoint} ${r.version} (${r.state})`).join(", ");
        return (
          <div key={m.id} className={`${styles.migCell} ${m.replicas.length ? styles.migBusy : ""}`} style={{ gridColumn: `${m.startSlot + 1} / span ${m.span}` }} title={`${t("instanceTitle", { profile: m.profile, slot: String(m.startSlot), size: gib(m.memoryGiB) })}: ${who || t("free")}`}>
            <b>{m.profile}</b>
            <span>{m.replicas.map((r) => r.endpoint).join(", ") || t("idle")}</span>
          </div>
        );
      })}
      {free.map((s) => (
        <div key={`free-${s}`} className={`${styles.migCell} ${styles.migFree}`} style={{ gridColumn: `${s + 1} / span 1` }} title={t("slotFree", { slot: String(s) })} />
      ))}
    </div>
  );
}
