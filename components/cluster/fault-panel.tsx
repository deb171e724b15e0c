"use client";

import { useClusterActions } from "./use-cluster-actions";
import type { ClusterSummary } from "./types";

/** What the simulator has been told to break, and the button that heals it all. */
export function FaultPanel({ summary }: { summary: ClusterSummary }) {
  const { clear, busy } = useClusterActions();
  const f = summary.faults;
  const errorShares = Object.entries(f?.versionErrorShare ?? {}).filter(([, share]) => share > 0);
  const none = !f || (f.xids.length === 0 && f.slowReplicas.length === 0 && f.downNodes.length === 0 && errorShares.length === 0);
  return (
    <div className="panel" role="region" aria-label="Faults">
      <h2>Injected faults</h2>
      {!f ? (
        <p className="muted">The simulator does not answer, so its faults are unknown.</p>
      ) : none ? (
        <p className="muted">None: the simulated cluster runs clean.</p>
      ) : (
        <ul>
          {f.xids.map((x) => (
            <li key={x.gpuUuid}>
              <span className="badge badge-danger">XID {x.xid}</span> on {x.hostname} <span className="muted mono">{x.gpuUuid}</span>
            </li>
          ))}
          {f.downNodes.map((h) => (
            <li key={h}>
              <span className="badge badge-danger">down</span> node {h}
            </li>
          ))}
          {f.slowReplicas.map((s) => (
            <li key={s.id}>
              <span className="badge badge-warn">slow ×{s.factor}</span> replica {summary.faultReplicas[s.id] ?? <span className="mono">{s.id}</span>}
            </li>
          ))}
          {errorShares.map(([versionId, share]) => (
            <li key={versionId}>
              <span className="badge badge-warn">{Math.round(share * 100)}% errors</span> endpoint version <span className="mono">{versionId}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        <button type="button" disabled={busy || !f} onClick={() => clear.mutate()}>
          Clear all faults
        </button>
      </div>
    </div>
  );
}
