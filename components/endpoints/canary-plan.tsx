"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { useNow } from "@/components/ui/use-now";
import { canaryPair, formatSeconds, parseSteps } from "./rollout-view";
import { useErrorText } from "@/components/trpc/use-error-text";
import styles from "./rollout.module.css";

type Endpoint = inferRouterOutputs<AppRouter>["endpoint"]["get"];
type Active = NonNullable<inferRouterOutputs<AppRouter>["rollout"]["active"]>;

/** The automatic canary: the plan in progress with its steps and hold, or a form to start one. */
export function CanaryPlan({ endpoint, canWrite }: { endpoint: Endpoint; canWrite: boolean }) {
  const trpc = useTRPC();
  const active = useQuery(trpc.rollout.active.queryOptions({ endpointId: endpoint.id }, { refetchInterval: 1000 }));
  const t = useTranslations("endpoints.canary");
  if (active.isPending) return null;
  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      {active.data ? <ActivePlan plan={active.data} endpointId={endpoint.id} canWrite={canWrite} /> : canWrite ? <StartPlan endpoint={endpoint} /> : <p className="muted">{t("noneRunning")}</p>}
    </div>
  );
}

function ActivePlan({ plan, endpointId, canWrite }: { plan: Active; endpointId: string; canWrite: boolean }) {
  const { errorText } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const now = useNow();
  const t = useTranslations("endpoints.canary");
  const tv = useTranslations("endpoints.view");
  const act = useMutation(
    trpc.rollout.planAction.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (_r, v) => {
        toast.success(t(({ abort: "aborted", pause: "paused", resume: "resumed", advance: "advanced" } as const)[v.action]));
        for (const key of [trpc.rollout.active.queryKey({ endpointId }), trpc.endpoint.get.queryKey({ id: endpointId }), trpc.rollout.history.queryKey({ endpointId })]) void qc.invalidateQueries({ queryKey: key });
      },
      onError: () => void qc.invalidateQueries({ queryKey: trpc.rollout.active.queryKey({ endpointId }) }),
    }),
  );
  const step = plan.steps[plan.stepIndex]!;
  const elapsed = ((plan.pausedAt ? new Date(plan.pausedAt).getTime() : now) - new Date(plan.stepStartedAt).getTime()) / 1000;
  const progress = Math.max(0, Math.min(1, elapsed / step.holdSeconds));
  const note = (plan.outcome as { note?: string } | null)?.note;
  const run = (action: "pause" | "resume" | "advance" | "abort") => act.mutate({ rolloutId: plan.id, action, expectedRevision: plan.revision });
  return (
    <div className={styles.plan} data-testid="active-plan">
      <div>
        <b>
          {plan.stableLabel} → {plan.canaryLabel}
        </b>{" "}
        <span className={`badge ${plan.state === "running" ? "badge-ok" : "badge-warn"}`}>{t(`state.${plan.state}`)}</span>{" "}
        <span className="muted">
          {t("judged", { window: formatSeconds(plan.analysis.windowSeconds, tv), latency: String(plan.analysis.latencyMarginPct), errors: String(plan.analysis.errorMarginPoints) })}
        </span>
      </div>
      <div className={styles.steps}>
        {plan.steps.map((s, i) => (
          <div key={i} className={`${styles.step} ${i < plan.stepIndex ? styles.stepDone : i === plan.stepIndex ? styles.stepNow : ""}`}>
            {s.weight}%{s.weight < 100 && <div>{formatSeconds(s.holdSeconds, tv)}</div>}
          </div>
        ))}
      </div>
      <div className={styles.hold} title={t("holdTitle", { pct: String(Math.round(progress * 100)) })}>
        <span style={{ width: `${progress * 100}%` }} />
      </div>
      <div className="muted">
        {t("stepLine", { step: String(plan.stepIndex + 1), steps: String(plan.steps.length), weight: String(step.weight), left: String(Math.max(0, Math.ceil(step.holdSeconds - elapsed))) })}
        {note ? ` · ${note}` : ""}
      </div>
      {canWrite && (
        <div className="actions">
          {plan.state === "running" ? <button disabled={act.isPending} onClick={() => run("pause")}>{t("pause")}</button> : <button disabled={act.isPending} onClick={() => run("resume")}>{t("resume")}</button>}
          <button disabled={act.isPending} onClick={() => run("advance")}>{t("advance")}</button>
          <button className="danger" disabled={act.isPending} onClick={() => run("abort")}>
            {t("abort", { stable: plan.stableLabel })}
          </button>
        </div>
      )}
      {act.error && <div className="form-error" role="alert">{errorText(act.error)}</div>}
    </div>
  );
}

function StartPlan({ endpoint }: { endpoint: Endpoint }) {
  const { errorText } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("endpoints.canary");
  const tv = useTranslations("endpoints.view");
  const [stepsText, setStepsText] = useState("5:10m, 20:10m, 50:10m, 100");
  const [windowSeconds, setWindowSeconds] = useState(300);
  const start = useMutation(
    trpc.rollout.startPlan.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success(t("started"));
        for (const key of [trpc.rollout.active.queryKey({ endpointId: endpoint.id }), trpc.endpoint.get.queryKey({ id: endpoint.id }), trpc.rollout.history.queryKey({ endpointId: endpoint.id })]) void qc.invalidateQueries({ queryKey: key });
      },
    }),
  );
  const pair = canaryPair(endpoint.versions);
  if (!pair || pair.stable.weight !== 100 || pair.canary.state !== "ready") {
    return <p className="muted">{t("needsPair")}</p>;
  }
  const parsed = parseSteps(stepsText, tv);
  return (
    <div className={styles.plan}>
      <p className="muted" style={{ margin: 0 }}>
        {t("explain", { stable: pair.stable.modelVersion.version, canary: pair.canary.modelVersion.version })}
      </p>
      <div className="actions">
        <label htmlFor="plan-steps">{t("steps")}</label>
        <input id="plan-steps" value={stepsText} onChange={(e) => (setStepsText(e.target.value), start.reset())} style={{ width: 280 }} />
        <label htmlFor="plan-window">{t("window")}</label>
        <input id="plan-window" type="number" min={5} value={windowSeconds} onChange={(e) => setWindowSeconds(Math.max(5, Number(e.target.value) || 5))} style={{ width: 80 }} />
        <button
          className="primary"
          disabled={"error" in parsed || start.isPending}
          onClick={() =>
            "steps" in parsed &&
            start.mutate({ endpointId: endpoint.id, canaryVersionId: pair.canary.id, expectedRevision: endpoint.revision, steps: parsed.steps, analysis: { windowSeconds, latencyMarginPct: 20, latencyMarginMs: 25, errorMarginPoints: 1, minRequests: 20 } })
          }
        >
          {t("start")}
        </button>
      </div>
      {"error" in parsed && <div className="error">{parsed.error}</div>}
      {start.error && <div className="form-error" role="alert">{errorText(start.error)}</div>}
    </div>
  );
}
