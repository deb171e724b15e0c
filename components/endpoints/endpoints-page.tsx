"use client";

import Link from "next/link";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PageHead, FormActions } from "@/components/ui/page-head";
import { WeightsBar } from "./weights-bar";
import { SERVING_ENGINES } from "@/server/shared/catalog";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

export function EndpointsPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.endpoint.list.queryOptions(undefined, PANEL_QUERY));
  const t = useTranslations("endpoints.list");
  const fmt = useFormat();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHead
        title={t("title")}
        action={
          canWrite &&
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              {t("newEndpoint")}
            </button>
          )
        }
      >
        {t.rich("intro", { code: (c) => <code>{c}</code> })}
      </PageHead>
      {creating && <CreateEndpointForm onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState
          query={endpoints}
          what={t("what")}
          empty={<Empty title={t("emptyTitle")}>{canWrite ? t("emptyWrite") : t("emptyRead")}</Empty>}
        >
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>{t("colEndpoint")}</th>
                  <th>{t("colApiName")}</th>
                  <th>{t("colModel")}</th>
                  <th>{t("colPool")}</th>
                  <th>{t("colSplit")}</th>
                  <th>{t("colSlo")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Link href={`/endpoints/${e.id}`}>{e.name}</Link> {e.retiredAt && <span className="badge badge-danger">{t("retired")}</span>}
                    </td>
                    <td>
                      <code>{e.slug}</code>
                    </td>
                    <td>{e.model.name}</td>
                    <td>
                      {e.nodePool.name} <span className="badge">{e.nodePool.region}</span>
                    </td>
                    <td>
                      <WeightsBar versions={e.versions.map((v) => ({ id: v.id, label: v.modelVersion.version, weight: v.weight }))} />
                      <span className="muted">
                        {e.versions
                          .filter((v) => v.weight > 0)
                          .map((v) => `${v.modelVersion.version} ${v.weight}%`)
                          .join(" · ")}
                      </span>
                    </td>
                    <td className="muted">
                      {fmt.number(Number(e.sloAvailabilityPct), 3)}% · p99 {fmt.number(e.sloP99LatencyMs)} ms{e.sloTtftMs ? ` · TTFT ${fmt.number(e.sloTtftMs)} ms` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
    </>
  );
}

function CreateEndpointForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const t = useTranslations("endpoints.create");
  const models = useQuery(trpc.model.list.queryOptions());
  const pools = useQuery(trpc.cluster.nodePools.queryOptions());
  const [f, setF] = useState({ name: "", slug: "", modelId: "", modelVersionId: "", engine: "vllm", nodePoolId: "", avail: "99.9", p99: "2000", ttft: "", region: "", sticky: false });
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const create = useMutation(trpc.endpoint.create.mutationOptions(saved({ refresh: trpc.endpoint.pathKey(), toast: (ep) => t("created", { name: ep.name }), then: onDone })));
  const errors = fieldErrorsOf(create.error);
  const versions = models.data?.find((m) => m.id === f.modelId)?.versions.filter((v) => !v.retiredAt) ?? [];
  return (
    <FormPanel
      title={t("title")}
      error={create.error}
      onSubmit={() => {
        create.mutate({
          name: f.name,
          slug: f.slug,
          modelId: f.modelId,
          modelVersionId: f.modelVersionId,
          engine: f.engine as (typeof SERVING_ENGINES)[number],
          nodePoolId: f.nodePoolId,
          sloAvailabilityPct: Number(f.avail),
          sloP99LatencyMs: Number(f.p99),
          sloTtftMs: f.ttft ? Number(f.ttft) : null,
          regionConstraint: f.region || null,
          stickySessions: f.sticky,
        });
      }}
    >
      <div className="form-row">
        <Field id="ep-name" label={t("name")} errors={errors.name}>
          <input id="ep-name" value={f.name} onChange={set("name")} aria-invalid={!!errors.name} />
        </Field>
        <Field id="ep-slug" label={t("slug")} hint={t("slugHint")} errors={errors.slug}>
          <input id="ep-slug" value={f.slug} onChange={set("slug")} aria-invalid={!!errors.slug} />
        </Field>
      </div>
      <div className="form-row">
        <Field id="ep-model" label={t("model")} errors={errors.modelId}>
          <select id="ep-model" value={f.modelId} onChange={(e) => setF({ ...f, modelId: e.target.value, modelVersionId: "" })} aria-invalid={!!errors.modelId}>
            <option value="">{t("chooseModel")}</option>
            {models.data?.filter((m) => !m.retiredAt).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="ep-version" label={t("firstVersion")} errors={errors.modelVersionId}>
          <select id="ep-version" value={f.modelVersionId} onChange={set("modelVersionId")} aria-invalid={!!errors.modelVersionId}>
            <option value="">{f.modelId && !versions.length ? t("noVersionYet") : t("chooseVersion")}</option>
            {versions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.version} ({v.precision})
              </option>
            ))}
          </select>
        </Field>
        <Field id="ep-engine" label={t("engine")} errors={errors.engine}>
          <select id="ep-engine" value={f.engine} onChange={set("engine")}>
            {SERVING_ENGINES.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </Field>
        <Field id="ep-pool" label={t("pool")} errors={errors.nodePoolId}>
          <select id="ep-pool" value={f.nodePoolId} onChange={set("nodePoolId")} aria-invalid={!!errors.nodePoolId}>
            <option value="">{t("choosePool")}</option>
            {pools.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.region}, {p.gpus ? t("poolGpus", { count: p.gpus }) : t("cpuOnly")})
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="form-row">
        <Field id="ep-avail" label={t("availability")} errors={errors.sloAvailabilityPct}>
          <input id="ep-avail" inputMode="decimal" value={f.avail} onChange={set("avail")} aria-invalid={!!errors.sloAvailabilityPct} />
        </Field>
        <Field id="ep-p99" label={t("p99")} hint={t("p99Hint")} errors={errors.sloP99LatencyMs}>
          <input id="ep-p99" inputMode="numeric" value={f.p99} onChange={set("p99")} aria-invalid={!!errors.sloP99LatencyMs} />
        </Field>
        <Field id="ep-ttft" label={t("ttft")} hint={t("ttftHint")} errors={errors.sloTtftMs}>
          <input id="ep-ttft" inputMode="numeric" value={f.ttft} onChange={set("ttft")} aria-invalid={!!errors.sloTtftMs} />
        </Field>
        <Field id="ep-region" label={t("region")} hint={t("regionHint")} errors={errors.regionConstraint}>
          <input id="ep-region" value={f.region} onChange={set("region")} aria-invalid={!!errors.regionConstraint} />
        </Field>
      </div>
      <label>
        <input type="checkbox" checked={f.sticky} onChange={(e) => setF({ ...f, sticky: e.target.checked })} />{" "}
        {t.rich("sticky", { code: (c) => <code>{c}</code> })}
      </label>
      <FormActions submit={t("submit")} pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
