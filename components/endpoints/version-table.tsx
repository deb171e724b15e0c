"use client";

import { StateBadge } from "@/components/ui/state-badge";
import type { Endpoint, TrafficActions } from "./use-traffic-actions";

interface Props {
  endpoint: Endpoint;
  canWrite: boolean;
  /** Weights are edited per version here only when the slider is not shown (not exactly two live versions). */
  editWeights: boolean;
  locked: boolean;
  planRunning: boolean;
  weights: Record<string, number>;
  onWeight: (versionId: string, weight: number) => void;
  servedShare: (versionId: string) => number | null;
  actions: TrafficActions;
  drain: { drainSeconds: number; keepWarmMinutes: number };
}

/** The endpoint's versions: state, ready replicas, weight set and share served, and what an operator can do to each. */
export function VersionTable({ endpoint, canWrite, editWeights, locked, planRunning, weights, onWeight, servedShare, actions, drain }: Props) {
  const { busy, promote, blueGreen, remove } = actions;
  const ref = { endpointId: endpoint.id, expectedRevision: endpoint.revision };
  return (
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
            const share = servedShare(v.id);
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
                  {editWeights && v.state !== "draining" ? (
                    <input
                      aria-label={`Traffic for ${v.modelVersion.version}`}
                      type="number"
                      min={0}
                      max={100}
                      style={{ width: 80 }}
                      disabled={locked}
                      value={weights[v.id] ?? 0}
                      onChange={(ev) => onWeight(v.id, Math.max(0, Math.min(100, Math.round(Number(ev.target.value) || 0))))}
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
                        <button disabled={busy || planRunning} title="100% to this version; the others drain" onClick={() => promote.mutate({ ...ref, endpointVersionId: v.id, drainTimeoutSeconds: drain.drainSeconds })}>
                          Promote
                        </button>
                        <button
                          disabled={busy || planRunning}
                          title={`100% at once; the replaced version stays warm for ${drain.keepWarmMinutes} min`}
                          onClick={() => blueGreen.mutate({ ...ref, endpointVersionId: v.id, keepWarmSeconds: drain.keepWarmMinutes * 60, drainTimeoutSeconds: drain.drainSeconds })}
                        >
                          Blue-green
                        </button>
                      </>
                    )}
                    {v.weight === 0 && v.state !== "draining" && (
                      <button disabled={busy} onClick={() => remove.mutate({ ...ref, endpointVersionId: v.id, drainTimeoutSeconds: 30 })}>
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
  );
}
