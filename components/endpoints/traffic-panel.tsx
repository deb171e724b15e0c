"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useTRPC } from "@/components/trpc/client";
import { WeightsBar } from "./weights-bar";
import { canaryPair, liveVersions, rollbackTargetOf } from "./rollout-view";
import { useTrafficActions, type Endpoint } from "./use-traffic-actions";
import { CanarySlider } from "./canary-slider";
import { VersionTable } from "./version-table";
import { DrainSettings } from "./drain-settings";
import styles from "./rollout.module.css";

/**
 * Versions and traffic: the canary slider (or one input per version when more than two are live),
 * the split actually served over the last minute beside it, and promote / blue-green / rollback.
 */
export function TrafficPanel({ endpoint, canWrite, planRunning }: { endpoint: Endpoint; canWrite: boolean; planRunning: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("endpoints.traffic");
  const tv = useTranslations("endpoints.view");
  const fmt = useFormat();
  const served = useQuery(trpc.rollout.servedSplit.queryOptions({ endpointId: endpoint.id }, { refetchInterval: 2000 }));
  const [draft, setDraft] = useState<Record<string, number> | null>(null);
  const [drain, setDrain] = useState({ drainSeconds: 120, keepWarmMinutes: 15 });
  const actions = useTrafficActions(endpoint, () => setDraft(null));
  const pair = canaryPair(endpoint.versions);
  const live = liveVersions(endpoint.versions);
  const weights = draft ?? Object.fromEntries(endpoint.versions.map((v) => [v.id, v.weight]));
  const sum = live.reduce((s, v) => s + (weights[v.id] ?? 0), 0);
  const { target, blocked } = rollbackTargetOf(endpoint.versions, tv);
  const servedShare = (id: string) => served.data?.versions.find((s) => s.endpointVersionId === id)?.share ?? null;
  const locked = !canWrite || planRunning;
  const saveWeights = () => actions.save.mutate({ endpointId: endpoint.id, expectedRevision: endpoint.revision, weights: live.map((v) => ({ endpointVersionId: v.id, weight: weights[v.id] ?? 0 })) });

  return (
    <div className="panel">
      <h2>{t("title")}</h2>
      <div className={styles.bars}>
        <div>
          <span className="muted">{t("set")}</span>
          <WeightsBar versions={live.map((v) => ({ id: v.id, label: v.modelVersion.version, weight: v.weight }))} />
        </div>
        <div>
          <span className="muted">
            {t("served", { seconds: String(served.data?.windowSeconds ?? 60) })} {served.data ? t("servedRequests", { count: fmt.number(served.data.total) }) : ""}
          </span>
          {served.data && served.data.total > 0 ? (
            <WeightsBar versions={live.map((v) => ({ id: v.id, label: v.modelVersion.version, weight: servedShare(v.id) ?? 0 }))} />
          ) : (
            <div className="muted" data-testid="served-empty">
              {t("noCalls")}
            </div>
          )}
        </div>
      </div>

      {planRunning && <div className="notice">{t("planOwns")}</div>}

      {pair && canWrite && (
        <CanarySlider
          canaryLabel={pair.canary.modelVersion.version}
          stableLabel={pair.stable.modelVersion.version}
          canaryWeight={weights[pair.canary.id] ?? 0}
          stableWeight={weights[pair.stable.id] ?? 0}
          locked={locked}
          dirty={!!draft}
          busy={actions.busy}
          onChange={(w) => setDraft({ ...weights, [pair.canary.id]: w, [pair.stable.id]: 100 - w })}
          onApply={saveWeights}
          onDiscard={() => (setDraft(null), actions.clearMessage())}
        />
      )}

      {actions.message && (
        <div className="form-error" role="alert" style={{ marginTop: 12 }}>
          {actions.message}
        </div>
      )}

      <VersionTable
        endpoint={endpoint}
        canWrite={canWrite}
        editWeights={canWrite && !pair}
        locked={locked}
        planRunning={planRunning}
        weights={weights}
        onWeight={(id, w) => setDraft({ ...weights, [id]: w })}
        servedShare={servedShare}
        actions={actions}
        drain={drain}
      />

      {canWrite && !pair && (
        <div className="actions" style={{ marginTop: 12 }}>
          <button className="primary" disabled={locked || !draft || sum !== 100 || actions.busy} onClick={saveWeights}>
            {t("saveSplit")}
          </button>
          <span className={sum === 100 ? "muted" : "error"}>
            {t("total", { sum: String(sum) })}
            {sum !== 100 && t("mustBe100")}
          </span>
        </div>
      )}

      {canWrite && (
        <div className={styles.rollback}>
          <button className="danger" disabled={actions.busy || !!blocked} onClick={() => actions.rollback.mutate({ endpointId: endpoint.id, expectedRevision: endpoint.revision })}>
            {target ? t("rollBackTo", { version: target.modelVersion.version }) : t("rollBack")}
          </button>
          <span className="muted">{blocked ?? t("rollBackExplain")}</span>
        </div>
      )}
      {canWrite && <DrainSettings {...drain} onChange={setDrain} />}
    </div>
  );
}
