"use client";

import Link from "next/link";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { deployHref } from "./deploy-link";
import { memoryShares, planRows, type Plan, type PlanCandidate } from "./plan-view";

const GiB = 2 ** 30;
const CUR = "TRY";

/** A GPU's memory as one bar: weights, KV cache, runtime overhead (the memory rule's parts). */
function MemoryBar({ c }: { c: PlanCandidate }) {
  const s = memoryShares(c);
  return (
    <div className="weights" aria-hidden style={{ marginTop: 4 }}>
      <span style={{ width: `${s.weights}%`, background: "#3b6fd8" }} />
      <span style={{ width: `${s.kv}%`, background: "#7fb069" }} />
      <span style={{ width: `${s.overhead}%`, background: "#c9ced6" }} />
    </div>
  );
}

/** The ranked candidates with their breakdown, the refusals with their limits, and the model's assumptions. */
export function PlanResult({ plan }: { plan: Plan }) {
  const t = useTranslations("planner");
  const fmt = useFormat();
  const gib = (b: number) => `${fmt.number(b / GiB, 1)} GiB`;
  const money = (v: number | null) => (v === null ? t("noPrice") : fmt.money(v, CUR));
  const { ranked, refused } = planRows(plan);
  const endpoint = plan.model.endpoints[0];
  const a = plan.assumptions;
  return (
    <>
      <div className="panel">
        <h2>{t("resultTitle", { model: plan.model.label, count: ranked.length })}</h2>
        {ranked.length === 0 ? (
          <p className="form-error">{t("noneMeet")}</p>
        ) : (
          <table data-testid="plan">
            <thead>
              <tr>
                <th>{t("colRank")}</th>
                <th>{t("colCandidate")}</th>
                <th>{t("colReplicas")}</th>
                <th>{t("colMemory")}</th>
                <th>{t("colBatch")}</th>
                <th>{t("colLatency")}</th>
                <th>{t("colTokens")}</th>
                <th>{t("colGpuHours")}</th>
                <th>{t("colEnergy")}</th>
                <th>{t("colCost")}</th>
                <th>{t("colNow")}</th>
              </tr>
            </thead>
            <tbody>
              {ranked.map((c, i) => (
                <tr key={c.device} data-testid="plan-row" style={i === 0 ? { background: "#e3ecfb" } : undefined}>
                  <td>{c.rank}</td>
                  <td>
                    <b>{c.device}</b>
                  </td>
                  <td>{t("replicasCell", { replicas: c.replicas, gpus: c.gpus })}</td>
                  <td style={{ minWidth: 180 }}>
                    <span className="muted">{t("memoryCell", { weights: gib(c.weightBytesPerGpu), kv: gib(c.kvBytesPerGpu), overhead: gib(c.overheadBytesPerGpu) })}</span>
                    <MemoryBar c={c} />
                  </td>
                  <td>{t("batchCell", { batch: c.batch, sequences: c.kvSequences })}</td>
                  <td>{t("latencyCell", { ttft: fmt.number(c.ttftP99Ms, 0), tpot: fmt.number(c.tpotP99Ms, 1) })}</td>
                  <td>{fmt.number(c.tokensPerSPerReplica, 0)}</td>
                  <td>
                    {fmt.number(c.gpuHoursPerDay.autoscaled, 0)} / {fmt.number(c.gpuHoursPerDay.fixed, 0)}
                  </td>
                  <td>{fmt.number(c.kwhPerDay, 0)}</td>
                  <td data-testid="cost-per-1m">
                    <b>{t("costCell", { cost: money(c.costPer1MTokens), fixed: money(c.costPer1MTokensFixed) })}</b>
                  </td>
                  <td>
                    {c.fitsNow && <span className={c.fitsNow.fits ? "badge badge-ok" : "badge badge-warn"}>{c.fitsNow.text}</span>}
                    {endpoint && plan.model.modelVersionId ? (
                      <div style={{ marginTop: 4 }}>
                        <Link href={deployHref(endpoint.id, { modelVersionId: plan.model.modelVersionId, replicas: c.replicas, parallelism: c.split })}>{t("deploy", { endpoint: endpoint.name })}</Link>
                      </div>
                    ) : (
                      <div className="muted">{t("noEndpoint")}</div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {refused.length > 0 && (
        <div className="panel">
          <h2>{t("refusedTitle", { count: refused.length })}</h2>
          <ul data-testid="plan-refused">
            {refused.map((c) => (
              <li key={c.device}>{t("refusedLine", { candidate: c.device, reason: c.refused ?? "" })}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="panel">
        <h2>{t("assumptionsTitle")}</h2>
        <p>{t("assumptions", { prefill: Math.round(a.efficiency.prefillCompute * 100), decode: Math.round(a.efficiency.decodeBandwidth * 100), tpotFactor: a.p99OverMean.tpot, ttftFactor: a.p99OverMean.ttft })}</p>
        <p className="muted">{t("sources", { sources: a.gpus.map((g) => `${g.name} (${g.source})`).join("; ") })}</p>
        {plan.unknownGpus.length > 0 && <p className="muted">{t("unknownGpus", { gpus: plan.unknownGpus.join(", ") })}</p>}
      </div>
    </>
  );
}
