"use client";

import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { FormActions } from "@/components/ui/page-head";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import type { RequestClass } from "@/server/endpoints/schemas";

interface Routed {
  id: string;
  name: string;
  revision: number;
  replicaChoice: "least_outstanding" | "prefix_aware";
  fallbackEndpointIds: string[];
  requestClasses: unknown;
}

type Kind = RequestClass["match"]["kind"];
/** A class row as the form edits it: every input a string until saved. */
interface Row {
  name: string;
  kind: Kind;
  a: string;
  b: string;
  endpointId: string;
}

const toRow = (c: RequestClass): Row => ({
  name: c.name,
  kind: c.match.kind,
  a: c.match.kind === "prompt_tokens_over" ? String(c.match.tokens) : c.match.kind === "header" ? c.match.name : c.match.key,
  b: c.match.kind === "prompt_tokens_over" ? "" : c.match.value,
  endpointId: c.endpointId,
});
const toClass = (r: Row) => ({
  name: r.name,
  endpointId: r.endpointId,
  match: r.kind === "prompt_tokens_over" ? { kind: r.kind, tokens: Number(r.a) } : r.kind === "header" ? { kind: r.kind, name: r.a, value: r.b } : { kind: r.kind, key: r.a, value: r.b },
});

const KIND_LABEL: Record<Kind, string> = { prompt_tokens_over: "prompt longer than (tokens)", header: "header equals", metadata: "metadata field equals" };

/** How the endpoint routes: replica choice inside a version, fallback endpoints, request classes. Saved as one audited change. */
export function RoutingSettings({ endpoint: e, onDone }: { endpoint: Routed; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const endpoints = useQuery(trpc.endpoint.list.queryOptions());
  const others = (endpoints.data ?? []).filter((o) => o.id !== e.id && !o.retiredAt);
  const [choice, setChoice] = useState(e.replicaChoice);
  const [fallbacks, setFallbacks] = useState<string[]>(e.fallbackEndpointIds);
  const [rows, setRows] = useState<Row[]>(((e.requestClasses ?? []) as RequestClass[]).map(toRow));
  const update = useMutation(trpc.endpoint.update.mutationOptions(saved({ refresh: trpc.endpoint.get.queryKey({ id: e.id }), toast: () => `${e.name}: routing saved`, then: onDone })));
  const errors = fieldErrorsOf(update.error);
  const setRow = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const endpointSelect = (value: string, onChange: (v: string) => void, label: string) => (
    <select aria-label={label} value={value} onChange={(ev) => onChange(ev.target.value)}>
      <option value="">choose an endpoint…</option>
      {others.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name} ({o.slug})
        </option>
      ))}
    </select>
  );
  return (
    <FormPanel
      title={`Routing of ${e.name}`}
      error={update.error}
      onSubmit={() => update.mutate({ id: e.id, expectedRevision: e.revision, replicaChoice: choice, fallbackEndpointIds: fallbacks.filter(Boolean), requestClasses: rows.map(toClass) as RequestClass[] })}
    >
      <Field id="rs-choice" label="Replica choice inside a version" errors={errors.replicaChoice} hint="Prefix-aware sends calls that share a prompt's beginning (system prompt, earlier turns) to the replica that has it cached; a busy replica passes them on by load.">
        <select id="rs-choice" value={choice} onChange={(ev) => setChoice(ev.target.value as Routed["replicaChoice"])}>
          <option value="least_outstanding">Least outstanding requests</option>
          <option value="prefix_aware">Prefix-aware (cache affinity, bounded load)</option>
        </select>
      </Field>
      <Field id="rs-fallbacks" label="Fallback endpoints, in order" errors={errors.fallbackEndpointIds} hint="Tried on a 5xx, a 429 or no first byte in 10 s — never after a byte reached the client, never outside this endpoint's region rule or a key's allowed endpoints.">
        <div className="stack" id="rs-fallbacks">
          {fallbacks.map((f, i) => (
            <div className="actions" key={i}>
              {endpointSelect(f, (v) => setFallbacks(fallbacks.map((x, j) => (j === i ? v : x))), `Fallback ${i + 1}`)}
              <button type="button" className="secondary" onClick={() => setFallbacks(fallbacks.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          {fallbacks.length < 4 && (
            <button type="button" className="secondary" onClick={() => setFallbacks([...fallbacks, ""])}>
              Add a fallback
            </button>
          )}
        </div>
      </Field>
      <Field id="rs-classes" label="Request classes (first match wins)" errors={errors.requestClasses} hint="A matching call goes on to the class's endpoint; the class is kept in the call log, so cost can be split by it.">
        <div className="stack" id="rs-classes">
          {!rows.length && <p className="muted">No classes: every call stays on this endpoint. Add one to send, say, long prompts to a larger model.</p>}
          {rows.map((r, i) => (
            <div className="actions" key={i}>
              <input aria-label={`Class ${i + 1} name`} placeholder="name" value={r.name} onChange={(ev) => setRow(i, { name: ev.target.value })} />
              <select aria-label={`Class ${i + 1} rule`} value={r.kind} onChange={(ev) => setRow(i, { kind: ev.target.value as Kind })}>
                {(Object.keys(KIND_LABEL) as Kind[]).map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABEL[k]}
                  </option>
                ))}
              </select>
              <input aria-label={`Class ${i + 1} ${r.kind === "prompt_tokens_over" ? "tokens" : r.kind === "header" ? "header name" : "metadata key"}`} placeholder={r.kind === "prompt_tokens_over" ? "2000" : r.kind === "header" ? "x-tier" : "workload"} value={r.a} onChange={(ev) => setRow(i, { a: ev.target.value })} />
              {r.kind !== "prompt_tokens_over" && <input aria-label={`Class ${i + 1} value`} placeholder="value" value={r.b} onChange={(ev) => setRow(i, { b: ev.target.value })} />}
              {endpointSelect(r.endpointId, (v) => setRow(i, { endpointId: v }), `Class ${i + 1} endpoint`)}
              <button type="button" className="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="secondary" onClick={() => setRows([...rows, { name: "", kind: "prompt_tokens_over", a: "", b: "", endpointId: "" }])}>
            Add a class
          </button>
        </div>
      </Field>
      <FormActions submit="Save routing" pending={update.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
