"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { formErrorOf } from "@/components/trpc/errors";
import { useToast } from "@/components/ui/toast";

type Layout = { profile: string; startSlot: number }[];

/**
 * A MIG change of a busy GPU: first the plan (which replicas stop, where each moves, where it can
 * move back, what is out of service meanwhile, or why it is refused), then its steps as they run.
 */
export function MigChangePreview({ gpuId, layout, onDone }: { gpuId: string; layout: Layout; onDone: () => void }) {
  const t = useTranslations("cluster.migChange");
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [moveBack, setMoveBack] = useState(true);
  const [changeId, setChangeId] = useState<string | null>(null);
  const input = { changes: [{ gpuId, layout }], moveBack };
  const preview = useQuery(trpc.cluster.previewMigChange.queryOptions(input, { enabled: !changeId, meta: { handlesErrors: true } }));
  const start = useMutation(trpc.cluster.startMigChange.mutationOptions({ meta: { handlesErrors: true }, onSuccess: (c) => (setChangeId(c.id), toast.success(t("started"))) }));
  if (changeId) return <MigChangeSteps id={changeId} onDone={() => (void qc.invalidateQueries({ queryKey: trpc.cluster.pathKey() }), onDone())} />;
  if (preview.isPending) return <p className="muted">{t("planning")}</p>;
  if (preview.error) return <div className="form-error">{formErrorOf(preview.error)}</div>;
  const p = preview.data;
  return (
    <section aria-label={t("previewLabel")} style={{ display: "grid", gap: 6 }}>
      <b>{t("preview")}</b>
      {p.gpus.map((g) => (
        <div key={g.gpuId} className="muted">
          {g.label}: {g.before.join(" + ") || t("wholeGpu")} → {g.after.join(" + ") || t("migOff")}
        </div>
      ))}
      {p.moves.length === 0 ? (
        <p className="muted">{t("noReplica")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("replica")}</th>
              <th>{t("stopsOn")}</th>
              <th>{t("movesTo")}</th>
              {moveBack && <th>{t("movesBack")}</th>}
            </tr>
          </thead>
          <tbody>
            {p.moves.map((m) => (
              <tr key={m.replicaId}>
                <td>
                  {m.endpoint} {m.version}
                </td>
                <td>{m.from}</td>
                <td title={m.to?.reason}>{m.to ? m.to.label : <span className="error">{t("cannotPlace", { why: m.why ?? "" })}</span>}</td>
                {moveBack && <td title={m.back?.reason}>{m.back ? m.back.label : <span className="muted">{t("staysMoved")}</span>}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">{t("missing", { text: p.capacityMissing.text })}</p>
      {p.refused && (
        <div className="form-error" role="alert">
          {t("refused", { why: p.refused })}
        </div>
      )}
      {start.error && <div className="form-error">{formErrorOf(start.error)}</div>}
      <label>
        <input type="checkbox" checked={moveBack} onChange={(e) => setMoveBack(e.target.checked)} /> {t("moveBack")}
      </label>
      <div className="actions">
        <button className="primary" disabled={!!p.refused || start.isPending} onClick={() => start.mutate(input)}>
          {t("apply")}
        </button>
        <button onClick={onDone}>{t("cancel")}</button>
      </div>
    </section>
  );
}

function MigChangeSteps({ id, onDone }: { id: string; onDone: () => void }) {
  const t = useTranslations("cluster.migChange");
  const trpc = useTRPC();
  const changes = useQuery(trpc.cluster.migChanges.queryOptions(undefined, { refetchInterval: 1000 }));
  const cancel = useMutation(trpc.cluster.cancelMigChange.mutationOptions({ meta: { handlesErrors: true } }));
  const c = changes.data?.find((x) => x.id === id);
  if (!c) return <p className="muted">{t("starting")}</p>;
  const running = c.state === "running";
  return (
    <section aria-label={t("stepsLabel")}>
      <ol>
        {c.steps.map((s, i) => {
          const doneStep = i < c.step || (c.state === "done" && i <= c.step);
          const text = c.log.find((l) => l.step === i && l.text.startsWith(s))?.text;
          return (
            <li key={s} aria-current={running && i === c.step ? "step" : undefined}>
              {doneStep ? "✓" : running && i === c.step ? "…" : "·"} {s}
              {text && <div className="muted" style={{ fontSize: 12 }}>{text.slice(s.length + 2)}</div>}
            </li>
          );
        })}
      </ol>
      <p role="status">
        {c.state === "done" ? t("done") : c.state === "running" ? t("stepOf", { step: String(c.step + 1), steps: String(c.steps.length), name: c.steps[c.step] ?? "" }) : t("ended", { state: c.state, reason: c.reason ? `: ${c.reason}` : "" })}
      </p>
      {cancel.error && <div className="form-error">{formErrorOf(cancel.error)}</div>}
      <div className="actions">
        {running && (
          <button className="danger" disabled={cancel.isPending || (c.step > 1 && c.step < 4)} title={c.step > 1 && c.step < 4 ? t("noUndo") : undefined} onClick={() => cancel.mutate({ id })}>
            {t("cancelChange")}
          </button>
        )}
        {!running && <button onClick={onDone}>{t("close")}</button>}
      </div>
    </section>
  );
}
