"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Field } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { PANEL_QUERY } from "@/components/ui/query-state";
import { LineChartCard } from "@/components/metrics/line-chart-card";
import { useFormat } from "@/components/i18n/use-format";
import { autoscaleRows, decisionMarks, SIGNAL_KEY, type SampleLike, type SignalKind } from "./autoscale-view";
import { ColdStartSettings } from "./cold-start-settings";

type History = inferRouterOutputs<AppRouter>["autoscale"]["history"];
type VersionRow = History["versions"][number];

/** Per version: the autoscaling policy's form, its last decision, and replicas and signal over time with each decision marked. */
export function AutoscalePanel({ endpointId, canWrite }: { endpointId: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("endpoints.autoscale");
  const history = useQuery(trpc.autoscale.history.queryOptions({ endpointId }, { ...PANEL_QUERY, refetchInterval: 5000 }));
  if (!history.data) return null;
  const h = history.data;
  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      <p className="muted" style={{ marginTop: 0 }}>
        {t("intro")}
      </p>
      {canWrite && <ColdStartSettings endpointId={endpointId} current={h.coldStart} />}
      {h.versions.length === 0 && <p className="muted">{t("noVersion")}</p>}
      {h.versions.map((v) => (
        <VersionAutoscale key={v.id} endpointId={endpointId} version={v} points={h.points.filter((p) => p.versionId === v.id)} canWrite={canWrite} />
      ))}
    </div>
  );
}

function VersionAutoscale({ endpointId, version, points, canWrite }: { endpointId: string; version: VersionRow; points: History["points"]; canWrite: boolean }) {
  const t = useTranslations("endpoints.autoscale");
  const fmt = useFormat();
  const p = version.policy;
  const last = p?.lastDecision as { reason: string; at: string; poolLimited?: boolean } | null | undefined;
  const chart = p ? autoscaleRows(p.samples as unknown as SampleLike[], p.signal, p.target) : null;
  return (
    <section aria-label={t("sectionLabel", { version: version.label })} style={{ borderTop: "1px solid #eef1f5", paddingTop: 8, marginTop: 8 }}>
      <h3 style={{ fontSize: 14 }}>
        {t("version", { version: version.label })} {p ? <span className="badge">{p.enabled ? t("range", { min: String(p.minReplicas), max: String(p.maxReplicas) }) : t("paused")}</span> : <span className="muted">{t("notScaled")}</span>}
      </h3>
      {last && (
        <p role="status" className={last.poolLimited ? "error" : "muted"} style={{ fontSize: 13 }}>
          {t("lastDecision", { time: fmt.time(last.at, { seconds: true }), reason: last.reason })}
        </p>
      )}
      {chart && (
        <div className="grid-2" style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 8 }}>
          <LineChartCard title={t("replicasChart", { version: version.label })} unit={t("replicasUnit")} rows={chart.replicas} series={["ready", "starting"]} events={decisionMarks(points)} />
          <LineChartCard title={t("signalChart", { version: version.label })} unit={chart.unit === "%" ? "%" : t("perReplica")} rows={chart.signal} series={["signal", "target"]} note={t(SIGNAL_KEY[p!.signal])} />
        </div>
      )}
      <Decisions version={version.label} points={points} />
      {canWrite && <PolicyForm endpointId={endpointId} version={version} />}
    </section>
  );
}

/** The latest decisions in words, newest first: what the chart marks, with each one's reason and signal. */
function Decisions({ version, points }: { version: string; points: History["points"] }) {
  const t = useTranslations("endpoints.autoscale");
  const fmt = useFormat();
  const latest = points.slice(-DECISIONS_SHOWN).reverse();
  if (!latest.length) return null;
  return (
    <ol aria-label={t("decisionsOf", { version })} style={{ fontSize: 13, margin: "4px 0", paddingLeft: 18 }}>
      {latest.map((d) => (
        <li key={`${d.at}-${d.action}`}>{t("decision", { time: fmt.time(d.at, { seconds: true }), reason: d.reason })}</li>
      ))}
    </ol>
  );
}

const DECISIONS_SHOWN = 5;

const num = (v: string) => (v.trim() === "" ? NaN : Number(v));

function PolicyForm({ endpointId, version }: { endpointId: string; version: VersionRow }) {
  const t = useTranslations("endpoints.autoscale");
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const p = version.policy;
  const [open, setOpen] = useState(false);
  const [f, setF] = useState({
    enabled: p?.enabled ?? true,
    minReplicas: String(p?.minReplicas ?? 1),
    maxReplicas: String(p?.maxReplicas ?? 4),
    signal: (p?.signal ?? "waiting_per_replica") as SignalKind,
    target: String(p?.target ?? 4),
    scaleUpWindowSeconds: String(p?.scaleUpWindowSeconds ?? 0),
    scaleDownWindowSeconds: String(p?.scaleDownWindowSeconds ?? 300),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.autoscale.history.queryKey({ endpointId }) });
  const save = useMutation(trpc.autoscale.set.mutationOptions({ meta: { handlesErrors: true }, onSuccess: () => (void refresh(), setOpen(false), toast.success(t("saved", { version: version.label }))) }));
  const remove = useMutation(trpc.autoscale.remove.mutationOptions({ onSuccess: () => (void refresh(), toast.success(t("removed", { version: version.label }))) }));
  if (!open)
    return (
      <div className="actions">
        <button onClick={() => setOpen(true)}>{p ? t("edit") : t("create")}</button>
        {p && (
          <button className="danger" disabled={remove.isPending} onClick={() => remove.mutate({ endpointVersionId: version.id })}>
            {t("stop")}
          </button>
        )}
      </div>
    );
  const errors = fieldErrorsOf(save.error);
  const id = (n: string) => `as-${n}-${version.id}`;
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <form
      style={{ display: "grid", gap: 8, gridTemplateColumns: "repeat(3, minmax(0, 1fr))" }}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ endpointVersionId: version.id, enabled: f.enabled, minReplicas: num(f.minReplicas), maxReplicas: num(f.maxReplicas), signal: f.signal, target: num(f.target), scaleUpWindowSeconds: num(f.scaleUpWindowSeconds), scaleDownWindowSeconds: num(f.scaleDownWindowSeconds), expectedRevision: p?.revision });
      }}
    >
      {save.error && !Object.keys(errors).length && <div className="form-error" style={{ gridColumn: "1 / -1" }}>{formErrorOf(save.error)}</div>}
      <Field id={id("min")} label={t("min")} hint={t("minHint")} errors={errors.minReplicas}>
        <input id={id("min")} inputMode="numeric" value={f.minReplicas} onChange={set("minReplicas")} aria-invalid={!!errors.minReplicas} />
      </Field>
      <Field id={id("max")} label={t("max")} errors={errors.maxReplicas}>
        <input id={id("max")} inputMode="numeric" value={f.maxReplicas} onChange={set("maxReplicas")} aria-invalid={!!errors.maxReplicas} />
      </Field>
      <Field id={id("signal")} label={t("signal")} errors={errors.signal}>
        <select id={id("signal")} value={f.signal} onChange={set("signal")}>
          {(Object.keys(SIGNAL_KEY) as SignalKind[]).map((s) => (
            <option key={s} value={s}>
              {t(SIGNAL_KEY[s])}
            </option>
          ))}
        </select>
      </Field>
      <Field id={id("target")} label={t("target")} hint={f.signal === "kv_cache_usage" ? t("targetHintKv") : t("targetHint")} errors={errors.target}>
        <input id={id("target")} inputMode="decimal" value={f.target} onChange={set("target")} aria-invalid={!!errors.target} />
      </Field>
      <Field id={id("up")} label={t("up")} hint={t("upHint")} errors={errors.scaleUpWindowSeconds}>
        <input id={id("up")} inputMode="numeric" value={f.scaleUpWindowSeconds} onChange={set("scaleUpWindowSeconds")} aria-invalid={!!errors.scaleUpWindowSeconds} />
      </Field>
      <Field id={id("down")} label={t("down")} hint={t("downHint")} errors={errors.scaleDownWindowSeconds}>
        <input id={id("down")} inputMode="numeric" value={f.scaleDownWindowSeconds} onChange={set("scaleDownWindowSeconds")} aria-invalid={!!errors.scaleDownWindowSeconds} />
      </Field>
      <label style={{ gridColumn: "1 / -1" }}>
        <input type="checkbox" checked={f.enabled} onChange={(e) => setF({ ...f, enabled: e.target.checked })} /> {t("enabled")}
      </label>
      <div className="actions" style={{ gridColumn: "1 / -1" }}>
        <button className="primary" type="submit" disabled={save.isPending}>
          {save.isPending ? t("saving") : t("save")}
        </button>
        <button type="button" onClick={() => (setOpen(false), save.reset())}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
