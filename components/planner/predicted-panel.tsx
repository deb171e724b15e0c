"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { parallelismText } from "@/server/shared/memory-rule";

/**
 * The capacity planner checked after deploy: its prediction for the load the endpoint carries
 * now (its batch, prompt and answer lengths, calls a second) beside what Prometheus measured.
 */
export function PredictedPanel({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const t = useTranslations("planner.live");
  const fmt = useFormat();
  const live = useQuery(trpc.planner.live.queryOptions({ endpointId }, { refetchInterval: 15_000 }));
  const d = live.data;
  if (!d) return null;
  if (!d.available) {
    if (d.why === "not_llm") return null;
    return (
      <div className="panel" data-testid="predicted">
        <h2>{t("title")}</h2>
        <p className="muted">{t(`why.${d.why}`, { gpu: "gpu" in d ? (d.gpu ?? "") : "" })}</p>
      </div>
    );
  }
  const value = (metric: (typeof d.rows)[number]["metric"], v: number | null) => (v === null ? "—" : metric === "tokensPerSPerReplica" ? fmt.number(v, 0) : `${fmt.number(v, 1)} ms`);
  return (
    <div className="panel" data-testid="predicted">
      <h2>{t("title")}</h2>
      <p className="muted">
        {t("load", { version: d.version, gpu: d.gpu, split: parallelismText(d.split), rps: fmt.number(d.load.requestsPerS, 2), prompt: fmt.number(d.load.promptTokens, 0), answer: fmt.number(d.load.answerTokens, 0), batch: fmt.number(d.load.batch, 1), replicas: d.load.replicas, window: d.window })}
      </p>
      <table aria-label={t("title")}>
        <thead>
          <tr>
            <th>{t("colMetric")}</th>
            <th>{t("colPredicted")}</th>
            <th>{t("colMeasured")}</th>
            <th>{t("colError")}</th>
          </tr>
        </thead>
        <tbody>
          {d.rows.map((r) => (
            <tr key={r.metric}>
              <td>{t(`metric.${r.metric}`)}</td>
              <td>{value(r.metric, r.predicted)}</td>
              <td>{value(r.metric, r.measured)}</td>
              <td>{r.errorPct === null ? "—" : <span className={Math.abs(r.errorPct) <= 25 ? "badge badge-ok" : "badge badge-warn"}>{`${r.errorPct > 0 ? "+" : ""}${fmt.number(r.errorPct, 1)}%`}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{t("caveat")}</p>
    </div>
  );
}
