"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useToast } from "@/components/ui/toast";
import { MIG_SLOTS, profilesFor } from "./mig";
import type { GpuView, NodeView } from "./types";
import styles from "./cluster.module.css";
import { MigChangePreview } from "./mig-change-preview";

interface Row {
  key: number;
  profile: string;
  startSlot: number;
}

/** Lists a GPU's MIG instances for editing; Apply sends the layout and shows the server's verdict. */
export function MigEditor({ gpu, node, onDone }: { gpu: GpuView; node: NodeView; onDone: () => void }) {
  const { formErrorOf } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("cluster.mig");
  const tg = useTranslations("cluster.gpu");
  const profiles = profilesFor(gpu.memoryGiB);
  const [rows, setRows] = useState<Row[]>(() => gpu.migInstances.map((m, i) => ({ key: i, profile: m.profile, startSlot: m.startSlot })));
  const [nextKey, setNextKey] = useState(gpu.migInstances.length);
  const [previewing, setPreviewing] = useState(false);
  const apply = useMutation(
    trpc.cluster.applyMig.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.cluster.pathKey() });
        toast.success(node.migApplies === "at-once" ? t("appliedAtOnce", { index: String(gpu.index), host: node.hostname }) : t("sent", { host: node.hostname }));
        onDone();
      },
    }),
  );
  const update = (key: number, patch: Partial<Row>) => {
    setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    apply.reset();
  };
  const add = () => {
    const used = new Set(rows.map((r) => r.startSlot));
    const free = [...Array(MIG_SLOTS - 1).keys()].find((s) => !used.has(s)) ?? 0;
    setRows([...rows, { key: nextKey, profile: profiles[0]?.name ?? "1g.10gb", startSlot: free }]);
    setNextKey(nextKey + 1);
    apply.reset();
  };
  const error = apply.error ? Object.values(fieldErrorsOf(apply.error)).flat().join(" ") || formErrorOf(apply.error) : null;
  const label = tg("label", { index: String(gpu.index), host: node.hostname });
  const layout = rows.map(({ profile, startSlot }) => ({ profile, startSlot }));
  if (previewing) return <MigChangePreview gpuId={gpu.id} layout={layout} onDone={onDone} />;
  return (
    <div className={styles.editor}>
      <b>{t("layoutOf", { label })}</b>
      {rows.length === 0 && <p className="muted">{t("noInstances")}</p>}
      {rows.map((r, i) => {
        const starts = profiles.find((p) => p.name === r.profile)?.starts ?? [r.startSlot];
        return (
          <div key={r.key} className={styles.editorRow}>
            <select aria-label={t("profileOf", { n: String(i + 1) })} value={r.profile} onChange={(e) => update(r.key, { profile: e.target.value, startSlot: profiles.find((p) => p.name === e.target.value)?.starts[0] ?? 0 })}>
              {!profiles.some((p) => p.name === r.profile) && <option value={r.profile}>{r.profile}</option>}
              {profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
            <select aria-label={t("startOf", { n: String(i + 1) })} value={r.startSlot} onChange={(e) => update(r.key, { startSlot: Number(e.target.value) })}>
              {(starts.includes(r.startSlot) ? starts : [r.startSlot, ...starts]).map((s) => (
                <option key={s} value={s}>
                  {t("slot", { slot: String(s) })}
                </option>
              ))}
            </select>
            <button type="button" onClick={() => (setRows(rows.filter((x) => x.key !== r.key)), apply.reset())}>
              {t("remove")}
            </button>
          </div>
        );
      })}
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={add} disabled={rows.length >= 7}>
          {t("add")}
        </button>
        <button type="button" className="primary" disabled={apply.isPending} onClick={() => apply.mutate({ gpuId: gpu.id, layout })}>
          {t("apply")}
        </button>
        {/* A GPU that serves: its replicas move first, then it is re-partitioned. */}
        <button type="button" onClick={() => setPreviewing(true)}>
          {t("previewMoves")}
        </button>
        <button type="button" onClick={onDone}>
          {t("cancel")}
        </button>
      </div>
    </div>
  );
}
