"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { formatDateTime } from "@/components/ui/format";
import { describeEvent } from "./rollout-view";
import styles from "./rollout.module.css";

type Metrics = { canary?: { requests: number; errorRate: number; p95Ms: number | null }; windowSeconds?: number; total?: number } | null;

function metricsLine(after: unknown): string | null {
  const m = (after as { metrics?: Metrics } | null)?.metrics;
  if (!m) return null;
  if (m.canary) return `canary: ${Math.round(m.canary.requests)} req, ${(m.canary.errorRate * 100).toFixed(2)}% errors, p95 ${m.canary.p95Ms === null ? "—" : `${Math.round(m.canary.p95Ms)} ms`}`;
  if (typeof m.total === "number") return `${m.total} requests in the last ${m.windowSeconds ?? 60} s`;
  return null;
}

/** The endpoint's timeline: every deploy, split change, promote, rollback and automatic decision. */
export function RolloutHistory({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.rollout.history.queryOptions({ endpointId }, { refetchInterval: 3000 }));
  return (
    <div className="panel">
      <h2>History</h2>
      {!history.data?.length ? (
        <p className="muted">Nothing has happened on this endpoint yet.</p>
      ) : (
        <ol className={styles.timeline} data-testid="rollout-history">
          {history.data.map((h) => {
            const d = describeEvent(h);
            return (
              <li key={h.id}>
                <span className="muted">{formatDateTime(h.at)}</span>
                <span>
                  <span className={`${styles.dot} ${d.tone ? styles[d.tone] : ""}`} />
                  <b>{d.title}</b>
                  {d.detail && <span className="muted"> — {d.detail}</span>}
                  {metricsLine(h.after) && <div className="muted">{metricsLine(h.after)}</div>}
                </span>
                <span className={h.automatic ? `badge ${styles.auto}` : "muted"}>{h.by}</span>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
