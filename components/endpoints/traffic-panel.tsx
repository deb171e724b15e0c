"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { StateBadge } from "@/components/ui/state-badge";
import { useToast } from "@/components/ui/toast";
import { WeightsBar } from "./weights-bar";
import { canaryPair, liveVersions, PRESETS, rollbackTargetOf } from "./rollout-view";
import styles from "./rollout.module.css";

type Endpoint = inferRouterOutputs<AppRouter>["endpoint"]["get"];

export function errorText(err: unknown): string {
  const fields = Object.values(fieldErrorsOf(err)).flat().filter(Boolean);
  return fields.length ? fields.join(" ") : (formErrorOf(err) ?? "");
}

/**
 * Versions and traffic: the canary slider (or one input per version when more than two are live),
 * the split actually served over the last minute beside it, and promote / blue-green / rollback.
 */
export function TrafficPanel({ endpoint, canWrite, planRunning }: { endpoint: Endpoint; canWrite: boolean; planRunning: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const served = useQuery(trpc.rollout.servedSplit.queryOptions({ endpointId: endpoint.id }, { refetchInterval: 2000 }));
  const [draft, setDraft] = useState<Record<string, number> | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // How long in-flight requests of a replaced version may take, and how long blue-green keeps it warm.
  const [drainSeconds, setDrainSeconds] = useState(120);
  const [keepWarmMinutes, setKeepWarmMinutes] = useState(15);
  const pair = canaryPair(endpoint.versions);
  const live = liveVersions(endpoint.versions);
  const weights = draft ?? Object.fromEntries(endpoint.versions.map((v) => [v.id, v.weight]));
  const sum = live.reduce((s, v) => s + (weights[v.id] ?? 0), 0);
  const { target, blocked } = rollbackTargetOf(endpoint.versions);

  const refresh = (after?: Endpoint) => {
    if (after) qc.setQueryData(trpc.endpoint.get.queryKey({ id: endpoint.id }), after);
    void qc.invalidateQueries({ queryKey: trpc.endpoint.get.queryKey({ id: endpoint.id }) });
    void qc.invalidateQueries({ queryKey: trpc.rollout.history.queryKey({ endpointId: endpoint.id }) });
    setDraft(null);
  };
  const onError = (err: unknown) => {
    setMessage(errorText(err));
    // A stale view: show the current state rather than overwrite someone else's change.
    if (err instanceof TRPCClientError && err.data?.code === "CONFLICT") refresh();
  };
  const opts = { meta: { handlesErrors: true }, onError };
  const save = useMutation(trpc.rollout.setWeights.mutationOptions({ ...opts, onSuccess: (a) => (refresh(a), setMessage(null), toast.success("Traffic split saved: gateways apply it within a second")) }));
  const promote = useMutation(trpc.rollout.promote.mutationOptions({ ...opts, onSuccess: (a) => (refresh(a), setMessage(null), toast.success("Promoted: the old version drains")) }));
  const blueGreen = useMutation(trpc.rollout.blueGreen.mutationOptions({ ...opts, onSuccess: (a) => (refresh(a), setMessage(null), toast.success("Switched: the old version stays warm")) }));
  const rollback = useMutation(trpc.rollout.rollback.mutationOptions({ ...opts, onSuccess: (a) => (refresh(a), setMessage(null), toast.success("Rolled back")) }));
  const remove = useMutation(trpc.rollout.removeVersion.mutationOptions({ ...opts, onSuccess: (a) => (refresh(a), setMessage(null), toast.success("Version removed: it drains, then its replicas stop")) }));
  const busy = save.isPending || promote.isPending || blueGreen.isPending || rollback.isPending || remove.isPending;
  const servedOf = (id: string) => served.data?.versions.find((s) => s.endpointVersionId === id)?.share ?? null;

  const setCanary = (w: number) => pair && setDraft({ ...weights, [pair.canary.id]: w, [pair.stable.id]: 100 - w });
  const saveWeights = () =>
    save.mutate({ endpointId: endpoint.id, expectedRevision: endpoint.revision, weights: live.map((v) => ({ endpointVersionId: v.id, weight: weights[v.id] ?? 0 })) });
  const locked = !canWrite || planRunning;

  return (
    <div className="panel">
      <h2>Versions and traffic</h2>
      <div className={styles.bars}>
        <div>
          <span className="muted">Set</span>
          <WeightsBar versions={live.map((v) => ({ id: v.id, label: v.modelVersion.version, weight: endpoint.versions.find((x) => x.id === v.id)!.weight }))} />
        </div>
        <div>
          <span className="muted">Served, last {served.data?.windowSeconds ?? 60} s {served.data ? `(${served.data.total} requests)` : ""}</span>
          {served.data && served.data.total > 0 ? (
            <WeightsBar versions={live.map((v) => ({ id: v.id, label: v.modelVersion.version, weight: servedOf(v.id) ?? 0 }))} />
          ) : (
            <div className="muted" data-testid="served-empty">No calls in the last minute: send traffic through the gateway to see the split served.</div>
          )}
        </div>
      </div>

      {planRunning && <div className="notice">An automatic canary is running and owns the weights: pause or abort it below to move the slider by hand.</div>}

      {pair && canWrite && (
        <div className={styles.slider}>
          <label htmlFor="canary-slider">
            Canary <b>{pair.canary.modelVersion.version}</b>: <output data-testid="canary-weight">{weights[pair.canary.id]}%</output> · stable <b>{pair.stable.modelVersion.version}</b>: {weights[pair.stable.id]}%
          </label>
          <input id="canary-slider" type="range" min={0} max={100} step={1} disabled={locked} value={weights[pair.canary.id] ?? 0} onChange={(e) => setCanary(Number(e.target.value))} aria-label="Canary traffic %" />
          <div className="actions">
            {PRESETS.map((p) => (
              <button key={p} type="button" disabled={locked} onClick={() => setCanary(p)}>
                {p}%
              </button>
            ))}
            <button className="primary" disabled={locked || !draft || busy} onClick={saveWeights}>
              Apply
            </button>
            {draft && (
              <button type="button" onClick={() => (setDraft(null), setMessage(null))}>
                Discard
              </button>
            )}
          </div>
        </div>
      )}

      {message && (
        <div className="form-error" role="alert" style={{ marginTop: 12 }}>
          {message}
        </div>
      )}

      <table style={{ marginTop: 12 }}>
        <thead>
          <tr>
            <th>Version</th>
            <th>State</th>
            <th>Replicas ready</th>
            <th>Weight</th>
            <th>Served (60 s)</th>
            {canWrite && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {endpoint.versions
            .filter((v) => v.state !== "retired")
            .map((v) => {
              const share = servedOf(v.id);
              const ready = v.replicas.filter((r) => r.state === "ready").length;
              return (
                <tr key={v.id} data-testid={`version-${v.modelVersion.version}`}>
                  <td>
                    <b>{v.modelVersion.version}</b> <span className="muted">{v.modelVersion.precision}</span>
                  </td>
                  <td>
                    <StateBadge state={v.state} />
                    {v.keepWarmUntil && <span className="badge">warm until {new Date(v.keepWarmUntil).toLocaleTimeString()}</span>}
                  </td>
                  <td>
                    {ready} / {v.replicas.length}
                  </td>
                  <td>
                    {canWrite && !pair && v.state !== "draining" ? (
                      <input
                        aria-label={`Traffic for ${v.modelVersion.version}`}
                        type="number"
                        min={0}
                        max={100}
                        style={{ width: 80 }}
                        disabled={locked}
                        value={weights[v.id] ?? 0}
                        onChange={(ev) => setDraft({ ...weights, [v.id]: Math.max(0, Math.min(100, Math.round(Number(ev.target.value) || 0))) })}
                      />
                    ) : (
                      `${v.weight}%`
                    )}
                  </td>
                  <td data-testid={`served-${v.modelVersion.version}`}>{share === null ? "—" : `${share.toFixed(1)}%`}</td>
                  {canWrite && (
                    <td className="actions">
                      {v.weight < 100 && v.state === "ready" && (
                        <>
                          <button disabled={busy || planRunning} title="100% to this version; the others drain" onClick={() => promote.mutate({ endpointId: endpoint.id, endpointVersionId: v.id, expectedRevision: endpoint.revision, drainTimeoutSeconds: drainSeconds })}>
                            Promote
                          </button>
                          <button disabled={busy || planRunning} title={`100% at once; the replaced version stays warm for ${keepWarmMinutes} min`} onClick={() => blueGreen.mutate({ endpointId: endpoint.id, endpointVersionId: v.id, expectedRevision: endpoint.revision, keepWarmSeconds: keepWarmMinutes * 60, drainTimeoutSeconds: drainSeconds })}>
                            Blue-green
                          </button>
                        </>
                      )}
                      {v.weight === 0 && v.state !== "draining" && (
                        <button disabled={busy} onClick={() => remove.mutate({ endpointId: endpoint.id, endpointVersionId: v.id, expectedRevision: endpoint.revision, drainTimeoutSeconds: 30 })}>
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
        </tbody>
      </table>

      {canWrite && !pair && (
        <div className="actions" style={{ marginTop: 12 }}>
          <button className="primary" disabled={locked || !draft || sum !== 100 || busy} onClick={saveWeights}>
            Save split
          </button>
          <span className={sum === 100 ? "muted" : "error"}>Total {sum}%{sum !== 100 && " — must be 100%"}</span>
        </div>
      )}

      {canWrite && (
        <div className={styles.rollback}>
          <button className="danger" disabled={busy || !!blocked} onClick={() => rollback.mutate({ endpointId: endpoint.id, expectedRevision: endpoint.revision })}>
            {target ? `Roll back to ${target.modelVersion.version}` : "Roll back"}
          </button>
          <span className="muted">{blocked ?? "100% back to the last version that held all traffic, at once; the others keep their replicas for inspection."}</span>
        </div>
      )}
      {canWrite && (
        <div className="actions muted" style={{ marginTop: 8, fontSize: 12 }}>
          <label htmlFor="drain-seconds">On promote, in-flight requests may finish for</label>
          <input id="drain-seconds" type="number" min={0} max={3600} value={drainSeconds} onChange={(e) => setDrainSeconds(Math.max(0, Math.min(3600, Math.round(Number(e.target.value) || 0))))} style={{ width: 70 }} />
          <span>s; blue-green keeps the old version warm for</span>
          <input aria-label="Keep warm minutes" type="number" min={0} max={1440} value={keepWarmMinutes} onChange={(e) => setKeepWarmMinutes(Math.max(0, Math.min(1440, Math.round(Number(e.target.value) || 0))))} style={{ width: 70 }} />
          <span>min.</span>
        </div>
      )}
    </div>
  );
}
