"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { describeEvent } from "./rollout-view";
import styles from "./rollout.module.css";

type Metrics = { canary?: { requests: number; errorRate: number; p95Ms: number | null }; windowSeconds?: number; total?: number } | null;

type T = ReturnType<typeof useTranslations<"endpoints.history">>;
type Fmt = ReturnType<typeof useFormat>;

function metricsLine(after: unknown, t: T, fmt: Fmt): string | null {
  const m = (after as { metrics?: Metrics } | null)?.metrics;
  if (!m) return null;
  if (m.canary)
    return t("canaryMetrics", {
      requests: fmt.number(Math.round(m.canary.requests)),
      errors: fmt.percent(m.canary.errorRate, 2),
      p95: m.canary.p95Ms === null ? "—" : `${fmt.number(Math.round(m.canary.p95Ms))} ms`,
    });
  if (typeof m.total === "number") return t("totalMetrics", { total: fmt.number(m.total), seconds: String(m.windowSeconds ?? 60) });
  return null;
}

/** The endpoint's timeline: every deploy, split change, promote, rollback and automatic decision. */
export function RolloutHistory({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.rollout.history.queryOptions({ endpointId }, { refetchInterval: 3000 }));
  const t = useTranslations("endpoints.history");
  const tv = useTranslations("endpoints.view");
  const fmt = useFormat();
  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      {!history.data?.length ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <ol className={styles.timeline} data-testid="rollout-history">
          {history.data.map((h) => {
            const d = describeEvent(h, tv);
            const line = metricsLine(h.after, t, fmt);
            return (
              <li key={h.id}>
                <span className="muted">{fmt.dateTime(h.at)}</span>
                <span>
                  <span className={`${styles.dot} ${d.tone ? styles[d.tone] : ""}`} />
                  <b>{d.title}</b>
                  {d.detail && <span className="muted"> — {d.detail}</span>}
                  {line && <div className="muted">{line}</div>}
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
