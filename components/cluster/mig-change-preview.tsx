"use client";

import { useState } from "react";
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
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [moveBack, setMoveBack] = useState(true);
  const [changeId, setChangeId] = useState<string | null>(null);
  const input = { changes: [{ gpuId, layout }], moveBack };
  const preview = useQuery(trpc.cluster.previewMigChange.queryOptions(input, { enabled: !changeId, meta: { handlesErrors: true } }));
  const start = useMutation(trpc.cluster.startMigChange.mutationOptions({ meta: { handlesErrors: true }, onSuccess: (c) => (setChangeId(c.id), toast.success("MIG change started")) }));
  if (changeId) return <MigChangeSteps id={changeId} onDone={() => (void qc.invalidateQueries({ queryKey: trpc.cluster.pathKey() }), onDone())} />;
  if (preview.isPending) return <p className="muted">Planning where each replica moves…</p>;
  if (preview.error) return <div className="form-error">{formErrorOf(preview.error)}</div>;
  const p = preview.data;
  return (
    <section aria-label="MIG change preview" style={{ display: "grid", gap: 6 }}>
      <b>Preview</b>
      {p.gpus.map((g) => (
        <div key={g.gpuId} className="muted">
          {g.label}: {g.before.join(" + ") || "whole GPU"} → {g.after.join(" + ") || "whole GPU (MIG off)"}
        </div>
      ))}
      {p.moves.length === 0 ? (
        <p className="muted">No replica runs here: the GPU is re-partitioned at once.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Replica</th>
              <th>Stops on</th>
              <th>Moves to meanwhile</th>
              {moveBack && <th>Moves back to</th>}
            </tr>
          </thead>
          <tbody>
            {p.moves.map((m) => (
              <tr key={m.replicaId}>
                <td>
                  {m.endpoint} {m.version}
                </td>
                <td>{m.from}</td>
                <td title={m.to?.reason}>{m.to ? m.to.label : <span className="error">cannot be placed: {m.why}</span>}</td>
                {moveBack && <td title={m.back?.reason}>{m.back ? m.back.label : <span className="muted">stays where it moved (nothing on the new layout holds it)</span>}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">Capacity missing meanwhile: {p.capacityMissing.text}.</p>
      {p.refused && (
        <div className="form-error" role="alert">
          Refused: {p.refused}. Free a device of the pool (stop a replica, change another layout) and preview again.
        </div>
      )}
      {start.error && <div className="form-error">{formErrorOf(start.error)}</div>}
      <label>
        <input type="checkbox" checked={moveBack} onChange={(e) => setMoveBack(e.target.checked)} /> Move the replicas back onto the new layout afterwards
      </label>
      <div className="actions">
        <button className="primary" disabled={!!p.refused || start.isPending} onClick={() => start.mutate(input)}>
          Apply as steps
        </button>
        <button onClick={onDone}>Cancel</button>
      </div>
    </section>
  );
}

function MigChangeSteps({ id, onDone }: { id: string; onDone: () => void }) {
  const trpc = useTRPC();
  const changes = useQuery(trpc.cluster.migChanges.queryOptions(undefined, { refetchInterval: 1000 }));
  const cancel = useMutation(trpc.cluster.cancelMigChange.mutationOptions({ meta: { handlesErrors: true } }));
  const c = changes.data?.find((x) => x.id === id);
  if (!c) return <p className="muted">Starting…</p>;
  const running = c.state === "running";
  return (
    <section aria-label="MIG change steps">
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
        {c.state === "done" ? "Done." : c.state === "running" ? `Step ${c.step + 1} of ${c.steps.length}: ${c.steps[c.step]}` : `${c.state}${c.reason ? `: ${c.reason}` : ""}`}
      </p>
      {cancel.error && <div className="form-error">{formErrorOf(cancel.error)}</div>}
      <div className="actions">
        {running && (
          <button className="danger" disabled={cancel.isPending || (c.step > 1 && c.step < 4)} title={c.step > 1 && c.step < 4 ? "The drain and re-partition cannot be undone midway" : undefined} onClick={() => cancel.mutate({ id })}>
            Cancel the change
          </button>
        )}
        {!running && <button onClick={onDone}>Close</button>}
      </div>
    </section>
  );
}
