"use client";

import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
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
  privatePrefixCache: boolean;
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

const KINDS: Kind[] = ["prompt_tokens_over", "header", "metadata"];

/** How the endpoint routes: replica choice inside a version, private prefix caches, fallback endpoints, request classes. Saved as one audited change. */
export function RoutingSettings({ endpoint: e, onDone }: { endpoint: Routed; onDone: () => void }) {
  const trpc = useTRPC();
  const t = useTranslations("endpoints.routing");
  const saved = useSaveOptions();
  const endpoints = useQuery(trpc.endpoint.list.queryOptions());
  const others = (endpoints.data ?? []).filter((o) => o.id !== e.id && !o.retiredAt);
  const [choice, setChoice] = useState(e.replicaChoice);
  const [privateCache, setPrivateCache] = useState(e.privatePrefixCache);
  const [fallbacks, setFallbacks] = useState<string[]>(e.fallbackEndpointIds);
  const [rows, setRows] = useState<Row[]>(((e.requestClasses ?? []) as RequestClass[]).map(toRow));
  const update = useMutation(trpc.endpoint.update.mutationOptions(saved({ refresh: trpc.endpoint.get.queryKey({ id: e.id }), toast: () => t("saved", { name: e.name }), then: onDone })));
  const errors = fieldErrorsOf(update.error);
  const setRow = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const endpointSelect = (value: string, onChange: (v: string) => void, label: string) => (
    <select aria-label={label} value={value} onChange={(ev) => onChange(ev.target.value)}>
      <option value="">{t("chooseEndpoint")}</option>
      {others.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name} ({o.slug})
        </option>
      ))}
    </select>
  );
  return (
    <FormPanel
      title={t("formTitle", { name: e.name })}
      error={update.error}
      onSubmit={() => update.mutate({ id: e.id, expectedRevision: e.revision, replicaChoice: choice, privatePrefixCache: privateCache, fallbackEndpointIds: fallbacks.filter(Boolean), requestClasses: rows.map(toClass) as RequestClass[] })}
    >
      <Field id="rs-choice" label={t("choiceLabel")} errors={errors.replicaChoice} hint={t("choiceHint")}>
        <select id="rs-choice" value={choice} onChange={(ev) => setChoice(ev.target.value as Routed["replicaChoice"])}>
          <option value="least_outstanding">{t("optionLeast")}</option>
          <option value="prefix_aware">{t("optionPrefix")}</option>
        </select>
      </Field>
      <Field id="rs-private" label={t("privateCacheLabel")} errors={errors.privatePrefixCache} hint={t("privateCacheHint")}>
        <input id="rs-private" type="checkbox" checked={privateCache} onChange={(ev) => setPrivateCache(ev.target.checked)} />
      </Field>
      <Field id="rs-fallbacks" label={t("fallbacksLabel")} errors={errors.fallbackEndpointIds} hint={t("fallbacksHint")}>
        <div className="stack" id="rs-fallbacks">
          {fallbacks.map((f, i) => (
            <div className="actions" key={i}>
              {endpointSelect(f, (v) => setFallbacks(fallbacks.map((x, j) => (j === i ? v : x))), t("fallbackN", { n: i + 1 }))}
              <button type="button" className="secondary" onClick={() => setFallbacks(fallbacks.filter((_, j) => j !== i))}>
                {t("remove")}
              </button>
            </div>
          ))}
          {fallbacks.length < 4 && (
            <button type="button" className="secondary" onClick={() => setFallbacks([...fallbacks, ""])}>
              {t("addFallback")}
            </button>
          )}
        </div>
      </Field>
      <Field id="rs-classes" label={t("classesLabel")} errors={errors.requestClasses} hint={t("classesHint")}>
        <div className="stack" id="rs-classes">
          {!rows.length && <p className="muted">{t("classesEmpty")}</p>}
          {rows.map((r, i) => (
            <div className="actions" key={i}>
              <input aria-label={t("className", { n: i + 1 })} placeholder={t("namePlaceholder")} value={r.name} onChange={(ev) => setRow(i, { name: ev.target.value })} />
              <select aria-label={t("classRule", { n: i + 1 })} value={r.kind} onChange={(ev) => setRow(i, { kind: ev.target.value as Kind })}>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(`kinds.${k}`)}
                  </option>
                ))}
              </select>
              <input aria-label={t("classArg", { n: i + 1 })} placeholder={r.kind === "prompt_tokens_over" ? "2000" : r.kind === "header" ? "x-tier" : "workload"} value={r.a} onChange={(ev) => setRow(i, { a: ev.target.value })} />
              {r.kind !== "prompt_tokens_over" && <input aria-label={t("classValue", { n: i + 1 })} placeholder={t("valuePlaceholder")} value={r.b} onChange={(ev) => setRow(i, { b: ev.target.value })} />}
              {endpointSelect(r.endpointId, (v) => setRow(i, { endpointId: v }), t("classEndpoint", { n: i + 1 }))}
              <button type="button" className="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                {t("remove")}
              </button>
            </div>
          ))}
          <button type="button" className="secondary" onClick={() => setRows([...rows, { name: "", kind: "prompt_tokens_over", a: "", b: "", endpointId: "" }])}>
            {t("addClass")}
          </button>
        </div>
      </Field>
      <FormActions submit={t("save")} pending={update.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
