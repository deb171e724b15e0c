"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { useNow } from "@/components/ui/use-now";
import { canaryPair, formatSeconds, parseSteps } from "./rollout-view";
import { errorText } from "@/components/trpc/errors";
import styles from "./rollout.module.css";

type Endpoint = inferRouterOutputs<AppRouter>["endpoint"]["get"];
type Active = NonNullable<inferRouterOutputs<AppRouter>["rollout"]["active"]>;

/** The automatic canary: the plan in progress with its steps and hold, or a form to start one. */
export function CanaryPlan({ endpoint, canWrite }: { endpoint: Endpoint; canWrite: boolean }) {
  const trpc = useTRPC();
  const active = useQuery(trpc.rollout.active.queryOptions({ endpointId: endpoint.id }, { refetchInterval: 1000 }));
  if (active.isPending) return null;
  return (
    <div className="panel">
      <h2>Automatic canary</h2>
      {active.data ? <ActivePlan plan={active.data} endpointId={endpoint.id} canWrite={canWrite} /> : canWrite ? <StartPlan endpoint={endpoint} /> : <p className="muted">No automatic canary is running on this endpoint.</p>}
    </div>
  );
}

function ActivePlan({ plan, endpointId, canWrite }: { plan: Active; endpointId: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const now = useNow();
  const act = useMutation(
    trpc.rollout.planAction.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (_r, v) => {
        toast.success(`Canary ${v.action === "abort" ? "aborted: all traffic back on the stable version" : `${v.action}d`}`);
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
        <span className={`badge ${plan.state === "running" ? "badge-ok" : "badge-warn"}`}>{plan.state}</span>{" "}
        <span className="muted">
          judged over {formatSeconds(plan.analysis.windowSeconds)} against the SLO and the stable version (+{plan.analysis.latencyMarginPct}% latency, +{plan.analysis.errorMarginPoints} points errors)
        </span>
      </div>
      <div className={styles.steps}>
        {plan.steps.map((s, i) => (
          <div key={i} className={`${styles.step} ${i < plan.stepIndex ? styles.stepDone : i === plan.stepIndex ? styles.stepNow : ""}`}>
            {s.weight}%{s.weight < 100 && <div>{formatSeconds(s.holdSeconds)}</div>}
          </div>
        ))}
      </div>
      <div className={styles.hold} title={`${Math.round(progress * 100)}% of this step's hold`}>
        <span style={{ width: `${progress * 100}%` }} />
      </div>
      <div className="muted">
        Step {plan.stepIndex + 1} of {plan.steps.length}: canary at {step.weight}%, {Math.max(0, Math.ceil(step.holdSeconds - elapsed))} s left in the hold{note ? ` · ${note}` : ""}
      </div>
      {canWrite && (
        <div className="actions">
          {plan.state === "running" ? <button disabled={act.isPending} onClick={() => run("pause")}>Pause</button> : <button disabled={act.isPending} onClick={() => run("resume")}>Resume</button>}
          <button disabled={act.isPending} onClick={() => run("advance")}>Advance now</button>
          <button className="danger" disabled={act.isPending} onClick={() => run("abort")}>
            Abort (100% to {plan.stableLabel})
          </button>
        </div>
      )}
      {act.error && <div className="form-error" role="alert">{errorText(act.error)}</div>}
    </div>
  );
}

function StartPlan({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [stepsText, setStepsText] = useState("5:10m, 20:10m, 50:10m, 100");
  const [windowSeconds, setWindowSeconds] = useState(300);
  const start = useMutation(
    trpc.rollout.startPlan.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: () => {
        toast.success("Automatic canary started");
        for (const key of [trpc.rollout.active.queryKey({ endpointId: endpoint.id }), trpc.endpoint.get.queryKey({ id: endpoint.id }), trpc.rollout.history.queryKey({ endpointId: endpoint.id })]) void qc.invalidateQueries({ queryKey: key });
      },
    }),
  );
  const pair = canaryPair(endpoint.versions);
  if (!pair || pair.stable.weight !== 100 || pair.canary.state !== "ready") {
    return <p className="muted">Deploy a second version and wait for a ready replica, with the live version at 100%: Kule can then move traffic to it step by step, judging each step on the SLO.</p>;
  }
  const parsed = parseSteps(stepsText);
  return (
    <div className={styles.plan}>
      <p className="muted" style={{ margin: 0 }}>
        Moves traffic from {pair.stable.modelVersion.version} to {pair.canary.modelVersion.version} in steps, advancing only while the canary&apos;s error rate, p95 latency and TTFT stay within the SLO and close to{" "}
        those of {pair.stable.modelVersion.version}; on a breach Kule rolls back by itself.
      </p>
      <div className="actions">
        <label htmlFor="plan-steps">Steps (weight:hold)</label>
        <input id="plan-steps" value={stepsText} onChange={(e) => (setStepsText(e.target.value), start.reset())} style={{ width: 280 }} />
        <label htmlFor="plan-window">window (s)</label>
        <input id="plan-window" type="number" min={5} value={windowSeconds} onChange={(e) => setWindowSeconds(Math.max(5, Number(e.target.value) || 5))} style={{ width: 80 }} />
        <button
          className="primary"
          disabled={"error" in parsed || start.isPending}
          onClick={() =>
            "steps" in parsed &&
            start.mutate({ endpointId: endpoint.id, canaryVersionId: pair.canary.id, expectedRevision: endpoint.revision, steps: parsed.steps, analysis: { windowSeconds, latencyMarginPct: 20, latencyMarginMs: 25, errorMarginPoints: 1, minRequests: 20 } })
          }
        >
          Start canary
        </button>
      </div>
      {"error" in parsed && <div className="error">{parsed.error}</div>}
      {start.error && <div className="form-error" role="alert">{errorText(start.error)}</div>}
    </div>
  );
}
