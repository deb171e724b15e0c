"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { budgetText, burnText, COLOUR_CLASS, COLOUR_TEXT, objectiveText, SLI_NAME } from "./sla-format";
import { PanelHead } from "@/components/ui/page-head";

interface SloFields {
  id: string;
  revision: number;
  sloAvailabilityPct: { toString(): string } | number;
  sloP99LatencyMs: number;
  sloTtftMs: number | null;
}

/** One endpoint's SLOs with their budget and burn, and (for operators) the form that changes them. */
export function EndpointSla({ endpoint, canWrite }: { endpoint: SloFields; canWrite: boolean }) {
  const trpc = useTRPC();
  const sla = useQuery(trpc.metrics.sla.queryOptions(undefined, { refetchInterval: 5000 }));
  const mine = sla.data?.endpoints.find((e) => e.endpointId === endpoint.id);
  const [editing, setEditing] = useState(false);
  return (
    <div className="panel" role="region" aria-label="SLA">
      <PanelHead
        title={
          <>
            SLA{" "}
            {mine && (
              <span className={COLOUR_CLASS[mine.status]} data-colour={mine.status}>
                {COLOUR_TEXT[mine.status]}
              </span>
            )}
          </>
        }
      >
        {canWrite && !editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit SLOs
          </button>
        )}
      </PanelHead>
      {sla.data && !sla.data.prometheus.available && <p className="muted">Status unknown: {sla.data.prometheus.reason}</p>}
      {mine && (
        <table>
          <thead>
            <tr>
              <th>SLO</th>
              <th>Objective ({sla.data?.budgetWindow})</th>
              <th>Status</th>
              <th>Error budget</th>
              <th>Burn rate (1 h)</th>
              <th>Alerts</th>
            </tr>
          </thead>
          <tbody>
            {mine.slis.map((s) => (
              <tr key={s.kind}>
                <td>{SLI_NAME[s.kind]}</td>
                <td>{objectiveText(s)}</td>
                <td>
                  <span className={COLOUR_CLASS[s.status]}>{COLOUR_TEXT[s.status]}</span>
                </td>
                <td>{budgetText(s.budgetLeft)}</td>
                <td>{burnText(s.burnRate)}</td>
                <td>{s.alerts.length ? s.alerts.map((a) => `${a.name} ${a.state}`).join(", ") : <span className="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && <SloForm endpoint={endpoint} onDone={() => setEditing(false)} />}
    </div>
  );
}

/** Any threshold is measured as written: the gateway judges every request against it, no histogram bucket rounds it. */
const EXACT_HINT = "Any value is measured exactly: the gateway counts each request within it or not.";

function SloForm({ endpoint, onDone }: { endpoint: SloFields; onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [availability, setAvailability] = useState(String(endpoint.sloAvailabilityPct));
  const [p99, setP99] = useState(String(endpoint.sloP99LatencyMs));
  const [ttft, setTtft] = useState(endpoint.sloTtftMs === null ? "" : String(endpoint.sloTtftMs));
  const save = useMutation(
    trpc.endpoint.updateSlo.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: trpc.endpoint.get.queryKey({ id: endpoint.id }) });
        void qc.invalidateQueries({ queryKey: trpc.metrics.sla.queryKey() });
        if (r.rules.state === "failed") toast.error(`SLOs saved, but ${r.rules.message}`);
        else toast.success(r.rules.state === "applied" ? "SLOs saved; Prometheus reloaded its alert rules." : "SLOs saved.");
        onDone();
      },
    }),
  );
  const errors = fieldErrorsOf(save.error);
  const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
  return (
    <form
      onSubmit={(ev) => {
        ev.preventDefault();
        save.mutate({
          endpointId: endpoint.id,
          expectedRevision: endpoint.revision,
          sloAvailabilityPct: num(availability),
          sloP99LatencyMs: num(p99),
          sloTtftMs: ttft.trim() === "" ? null : num(ttft),
        });
      }}
      style={{ marginTop: 12 }}
    >
      {save.error && (
        <div className="form-error" role="alert">
          {formErrorOf(save.error)}
        </div>
      )}
      <div className="grid-2">
        <Field id="slo-availability" label="Availability (%)" hint="e.g. 99.9" errors={errors.sloAvailabilityPct}>
          <input id="slo-availability" inputMode="decimal" value={availability} onChange={(e) => setAvailability(e.target.value)} />
        </Field>
        <Field id="slo-p99" label="p99 latency (ms)" hint={EXACT_HINT} errors={errors.sloP99LatencyMs}>
          <input id="slo-p99" inputMode="numeric" value={p99} onChange={(e) => setP99(e.target.value)} />
        </Field>
        <Field id="slo-ttft" label="TTFT (ms, p99)" hint={`empty: no TTFT objective. ${EXACT_HINT}`} errors={errors.sloTtftMs}>
          <input id="slo-ttft" inputMode="numeric" value={ttft} onChange={(e) => setTtft(e.target.value)} />
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save SLOs
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
