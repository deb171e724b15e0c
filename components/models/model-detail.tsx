"use client";

import Link from "next/link";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { FormActions, PageHead } from "@/components/ui/page-head";
import { gbToBytes } from "@/components/ui/format";
import { useUnits } from "./units";
import { MODEL_FORMATS, PRECISIONS } from "@/server/shared/catalog";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";
import { EditModelForm, RetireVersionButton } from "./model-lifecycle";

export function ModelDetail({ id, canWrite }: { id: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const model = useQuery(trpc.model.get.queryOptions({ id }, PANEL_QUERY));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState(false);
  const t = useTranslations("models.detail");
  const tt = useTranslations("models.task");
  const units = useUnits();
  const gate = queryGate(
    model,
    t("what"),
    <Empty title={t("notFound")}>
      <Link href="/models">{t("back")}</Link>
    </Empty>,
  );
  if (gate || !model.data) return gate;
  const m = model.data;
  return (
    <>
      <PageHead
        title={m.name}
        action={
          canWrite &&
          !m.retiredAt &&
          !adding &&
          !editing && (
            <>
              <button onClick={() => setEditing(true)}>{t("editOrRetire")}</button>{" "}
              <button className="primary" onClick={() => setAdding(true)}>
                {t("addVersion")}
              </button>
            </>
          )
        }
      >
        <span className="badge">{tt(m.task)}</span> {m.description}
        {m.retiredAt && <span className="badge badge-danger">{t("retired", { date: units.date(m.retiredAt) })}</span>}
      </PageHead>
      {editing && <EditModelForm model={m} onDone={() => setEditing(false)} />}
      {adding && <AddVersionForm modelId={m.id} onDone={() => setAdding(false)} />}
      <div className="panel">
        <h2>{t("versions")}</h2>
        {!m.versions.length ? (
          <Empty title={t("noVersions")}>{t("noVersionsHint")}</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th>{t("colVersion")}</th>
                <th>{t("colFormat")}</th>
                <th>{t("colPrecision")}</th>
                <th>{t("colParameters")}</th>
                <th>{t("colWeights")}</th>
                <th>{t("colMinGpu")}</th>
                <th>{t("colArtifact")}</th>
                <th>{t("colCreated")}</th>
                {canWrite && <th />}
              </tr>
            </thead>
            <tbody>
              {m.versions.map((v) => (
                <tr key={v.id}>
                  <td>
                    <b>{v.version}</b>
                  </td>
                  <td>{v.format}</td>
                  <td>{v.precision}</td>
                  <td>{units.params(v.parameterCount)}</td>
                  <td>{units.gb(v.weightBytes)}</td>
                  <td>{units.gb(v.minGpuMemoryBytes)}</td>
                  <td className="mono">{v.artifactUri}</td>
                  <td>{units.dateTime(v.createdAt)}</td>
                  {canWrite && <td>{v.retiredAt ? <span className="badge badge-danger">{t("retiredBadge")}</span> : <RetireVersionButton modelId={m.id} version={v} />}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="panel">
        <h2>{t("servedBy")}</h2>
        {m.endpoints.length ? (
          <ul>
            {m.endpoints.map((e) => (
              <li key={e.id}>
                <Link href={`/endpoints/${e.id}`}>{e.name}</Link> <code>{e.slug}</code>
              </li>
            ))}
          </ul>
        ) : (
          <Empty title={t("noEndpoint")}>{t("noEndpointHint")}</Empty>
        )}
      </div>
    </>
  );
}

function AddVersionForm({ modelId, onDone }: { modelId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const [f, setF] = useState({ version: "", artifactUri: "", format: "vllm", precision: "fp16", parameterCount: "", weightGb: "", minGpuGb: "", contextTokens: "" });
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const t = useTranslations("models.addVersion");
  const add = useMutation(trpc.model.addVersion.mutationOptions(saved({ refresh: trpc.model.pathKey(), toast: (v) => t("added", { version: v.version }), then: onDone })));
  const errors = fieldErrorsOf(add.error);
  return (
    <FormPanel
      title={t("title")}
      error={add.error}
      onSubmit={() => {
        add.mutate({
          modelId,
          version: f.version,
          artifactUri: f.artifactUri,
          format: f.format as (typeof MODEL_FORMATS)[number],
          precision: f.precision as (typeof PRECISIONS)[number],
          parameterCount: f.parameterCount.replace(/[_,\s]/g, ""),
          // Sizes are typed in GB; an unparsable one is sent as-is so the server names the field.
          weightBytes: gbToBytes(f.weightGb) ?? f.weightGb,
          minGpuMemoryBytes: gbToBytes(f.minGpuGb) ?? f.minGpuGb,
          contextTokens: f.contextTokens.trim() ? Number(f.contextTokens.replace(/[_,\s]/g, "")) : null,
        });
      }}
    >
      <div className="form-row">
        <Field id="v-version" label={t("version")} hint={t("versionHint")} errors={errors.version}>
          <input id="v-version" value={f.version} onChange={set("version")} aria-invalid={!!errors.version} />
        </Field>
        <Field id="v-format" label={t("format")} errors={errors.format}>
          <select id="v-format" value={f.format} onChange={set("format")}>
            {MODEL_FORMATS.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </Field>
        <Field id="v-precision" label={t("precision")} errors={errors.precision}>
          <select id="v-precision" value={f.precision} onChange={set("precision")}>
            {PRECISIONS.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </Field>
      </div>
      <Field id="v-artifact" label={t("artifact")} hint={t("artifactHint")} errors={errors.artifactUri}>
        <input id="v-artifact" value={f.artifactUri} onChange={set("artifactUri")} aria-invalid={!!errors.artifactUri} />
      </Field>
      <div className="form-row">
        <Field id="v-params" label={t("params")} hint={t("paramsHint")} errors={errors.parameterCount}>
          <input id="v-params" inputMode="numeric" value={f.parameterCount} onChange={set("parameterCount")} aria-invalid={!!errors.parameterCount} />
        </Field>
        <Field id="v-weights" label={t("weights")} errors={errors.weightBytes}>
          <input id="v-weights" inputMode="decimal" value={f.weightGb} onChange={set("weightGb")} aria-invalid={!!errors.weightBytes} />
        </Field>
        <Field id="v-mingpu" label={t("minGpu")} hint={t("minGpuHint")} errors={errors.minGpuMemoryBytes}>
          <input id="v-mingpu" inputMode="decimal" value={f.minGpuGb} onChange={set("minGpuGb")} aria-invalid={!!errors.minGpuMemoryBytes} />
        </Field>
        <Field id="v-context" label={t("context")} hint={t("contextHint")} errors={errors.contextTokens}>
          <input id="v-context" inputMode="numeric" value={f.contextTokens} onChange={set("contextTokens")} aria-invalid={!!errors.contextTokens} />
        </Field>
      </div>
      <FormActions submit={t("submit")} pending={add.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
