"use client";

import { StateBadge } from "@/components/ui/state-badge";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { useErrorText } from "@/components/trpc/use-error-text";
import { FormActions } from "@/components/ui/page-head";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { useUnits } from "@/components/models/units";
import { useNow } from "@/components/ui/use-now";
import { TURKEY_REGION_PREFIX } from "@/server/shared/regions";
import { parallelismText, usableBytes } from "@/server/shared/memory-rule";

type Endpoint = inferRouterOutputs<AppRouter>["endpoint"]["get"];
type Version = Endpoint["versions"][number];


/** Each version's replicas, live, with starting one on a free device and registering an external server. */
export function ReplicasPanel({ endpoint, canWrite }: { endpoint: Endpoint; canWrite: boolean }) {
  const t = useTranslations("endpoints.replicas");
  const { gb } = useUnits();
  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      <table>
        <thead>
          <tr>
            <th>{t("colVersion")}</th>
            <th>{t("colReplicas")}</th>
            {canWrite && <th>{t("colAdd")}</th>}
          </tr>
        </thead>
        <tbody>
          {endpoint.versions
            .filter((v) => v.state !== "retired")
            .map((v) => (
              <tr key={v.id}>
                <td>
                  <b>{v.modelVersion.version}</b>
                  <div className="muted">{t("needs", { size: gb(v.modelVersion.minGpuMemoryBytes) })}</div>
                </td>
                <td>
                  {v.replicas.length === 0 ? <span className="muted">{t("noneRunning")}</span> : v.replicas.map((r) => <ReplicaRow key={r.id} r={r} />)}
                </td>
                {canWrite && (
                  <td style={{ minWidth: 320 }}>
                    <StartReplica endpointId={endpoint.id} version={v} />
                  </td>
                )}
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}

/** A group's GPUs node by node, e.g. "gpu-llm-04 GPU 0+1+2+3 · TP 4". */
function groupWhere(r: Version["replicas"][number]): string {
  const byNode = new Map<string, number[]>();
  for (const { gpu } of r.gpus) byNode.set(gpu.node.hostname, [...(byNode.get(gpu.node.hostname) ?? []), gpu.index]);
  const split = parallelismText({ tensor: r.tensorParallel, pipeline: r.pipelineParallel });
  return `${[...byNode].map(([host, gpus]) => `${host} GPU ${gpus.join("+")}`).join(", ")} · ${split}`;
}

function ReplicaRow({ r }: { r: Version["replicas"][number] }) {
  const t = useTranslations("endpoints.replicas");
  const where = r.driver === "external" ? r.externalUrl : r.tensorParallel * r.pipelineParallel > 1 ? groupWhere(r) : r.gpu ? `${r.node?.hostname} GPU ${r.gpu.index}${r.migStartSlot !== null ? ` ${t("migSlot", { slot: String(r.migStartSlot) })}` : ""}` : r.node?.hostname;
  const now = useNow();
  const eta = r.state === "loading" && r.expectedReadyAt ? Math.max(0, Math.round((new Date(r.expectedReadyAt).getTime() - now) / 1000)) : null;
  return (
    <div style={{ marginBottom: 4 }} data-testid="replica">
      <StateBadge state={r.state} /> <span className="mono">{where}</span> <span className="badge">{r.region}</span>
      {r.driver === "external" && <span className="badge">{t("external")}</span>}
      {eta !== null && <span className="muted"> {t("readyIn", { seconds: String(eta) })}</span>}
      {r.reason && <div className="error" style={{ fontSize: 12 }}>{r.reason}</div>}
      {r.placementReason && <div className="muted" style={{ fontSize: 12 }} title={t("whyDevice")}>{r.placementReason}</div>}
    </div>
  );
}

function StartReplica({ endpointId, version }: { endpointId: string; version: Version }) {
  const { formErrorOf } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("endpoints.replicas");
  const { gb } = useUnits();
  const [mode, setMode] = useState<"none" | "start" | "external">("none");
  const [choice, setChoice] = useState(0);
  const [ext, setExt] = useState({ url: "", region: "tr-ist", metricsUrl: "", allowPlainHttp: false, gpuCount: 1, gpuModel: "" });
  const devices = useQuery(trpc.cluster.freeDevices.queryOptions({ endpointVersionId: version.id }, { enabled: mode === "start" }));
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.endpoint.get.queryKey({ id: endpointId }) });
  const start = useMutation(trpc.cluster.startReplica.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (void refresh(), setMode("none"), toast.success(t("starting"))) }));
  const register = useMutation(trpc.cluster.registerExternal.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (void refresh(), setMode("none"), toast.success(t("registered"))) }));
  if (mode === "none")
    return (
      <div className="actions">
        <button onClick={() => setMode("start")}>{t("start")}</button>
        <button onClick={() => setMode("external")}>{t("registerExternal")}</button>
      </div>
    );
  if (mode === "start") {
    const list = devices.data?.devices ?? [];
    return (
      <div className="stack" style={{ display: "grid", gap: 8 }}>
        {start.error && <div className="form-error">{formErrorOf(start.error)}</div>}
        {devices.isPending ? (
          <span className="muted">{t("finding")}</span>
        ) : list.length === 0 ? (
          <span className="error">{devices.data?.why ?? t("noFree", { size: gb(devices.data?.minMemoryBytes ?? 0) })}</span>
        ) : (
          <select aria-label={t("deviceFor", { version: version.modelVersion.version })} value={choice} onChange={(e) => setChoice(Number(e.target.value))}>
            {list.map((d, i) => (
              <option key={d.label} value={i}>
                {d.label} — {gb(d.memoryBytes)} ({t("usable", { size: gb(usableBytes(d.memoryBytes)) })})
              </option>
            ))}
          </select>
        )}
        <div className="actions">
          <button className="primary" disabled={!list.length || start.isPending} onClick={() => start.mutate({ endpointVersionId: version.id, device: list[choice]!.device })}>
            {t("startShort")}
          </button>
          <button onClick={() => (setMode("none"), start.reset())}>{t("cancel")}</button>
        </div>
      </div>
    );
  }
  const errors = fieldErrorsOf(register.error);
  return (
    <form
      style={{ display: "grid", gap: 8 }}
      onSubmit={(e) => {
        e.preventDefault();
        register.mutate({ endpointVersionId: version.id, ...ext });
      }}
    >
      {register.error && !Object.keys(errors).length && <div className="form-error">{formErrorOf(register.error)}</div>}
      <p className="muted" style={{ margin: 0 }}>
        {t("externalExplain")}
      </p>
      <Field id={`ext-url-${version.id}`} label={t("serverUrl")} errors={errors.url}>
        <input id={`ext-url-${version.id}`} placeholder="https://10.0.0.5:8000" value={ext.url} onChange={(e) => setExt({ ...ext, url: e.target.value })} aria-invalid={!!errors.url} />
      </Field>
      <label>
        <input type="checkbox" checked={ext.allowPlainHttp} onChange={(e) => setExt({ ...ext, allowPlainHttp: e.target.checked })} /> {t("plainHttp")}
      </label>
      <Field id={`ext-metrics-${version.id}`} label={t("metricsUrl")} hint={t("metricsHint", { serverUrl: t("serverUrlWord") })} errors={errors.metricsUrl}>
        <input id={`ext-metrics-${version.id}`} placeholder="http://10.0.0.5:8002/metrics" value={ext.metricsUrl} onChange={(e) => setExt({ ...ext, metricsUrl: e.target.value })} aria-invalid={!!errors.metricsUrl} />
      </Field>
      <Field id={`ext-gpus-${version.id}`} label={t("gpuCount")} hint={t("gpuHint")} errors={errors.gpuCount}>
        <input id={`ext-gpus-${version.id}`} type="number" min={1} max={64} value={ext.gpuCount} onChange={(e) => setExt({ ...ext, gpuCount: Math.round(Number(e.target.value) || 1) })} aria-invalid={!!errors.gpuCount} style={{ width: 80 }} />
      </Field>
      <Field id={`ext-gpu-model-${version.id}`} label={t("gpuModel")} errors={errors.gpuModel}>
        <input id={`ext-gpu-model-${version.id}`} placeholder="NVIDIA H100 80GB HBM3" value={ext.gpuModel} onChange={(e) => setExt({ ...ext, gpuModel: e.target.value })} aria-invalid={!!errors.gpuModel} />
      </Field>
      <Field id={`ext-region-${version.id}`} label={t("region")} hint={t("regionHint", { prefix: TURKEY_REGION_PREFIX })} errors={errors.region}>
        <input id={`ext-region-${version.id}`} value={ext.region} onChange={(e) => setExt({ ...ext, region: e.target.value })} aria-invalid={!!errors.region} />
      </Field>
      <FormActions submit={t("register")} pending={register.isPending} onCancel={() => (setMode("none"), register.reset())} />
    </form>
  );
}
