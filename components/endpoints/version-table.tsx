"use client";

import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
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
  const t = useTranslations("endpoints.versions");
  const fmt = useFormat();
  const ref = { endpointId: endpoint.id, expectedRevision: endpoint.revision };
  return (
    <table style={{ marginTop: 12 }}>
      <thead>
        <tr>
          <th>{t("colVersion")}</th>
          <th>{t("colState")}</th>
          <th>{t("colReady")}</th>
          <th>{t("colWeight")}</th>
          <th>{t("colServed")}</th>
          {canWrite && <th>{t("colActions")}</th>}
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
                  {v.keepWarmUntil && <span className="badge">{t("warmUntil", { time: fmt.dateTime(v.keepWarmUntil) })}</span>}
                </td>
                <td>
                  {ready} / {v.replicas.length}
                </td>
                <td>
                  {editWeights && v.state !== "draining" ? (
                    <input
                      aria-label={t("trafficFor", { version: v.modelVersion.version })}
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
                <td data-testid={`served-${v.modelVersion.version}`}>{share === null ? "—" : fmt.percent(share / 100, 1)}</td>
                {canWrite && (
                  <td className="actions">
                    {v.weight < 100 && v.state === "ready" && (
                      <>
                        <button disabled={busy || planRunning} title={t("promoteTitle")} onClick={() => promote.mutate({ ...ref, endpointVersionId: v.id, drainTimeoutSeconds: drain.drainSeconds })}>
                          {t("promote")}
                        </button>
                        <button
                          disabled={busy || planRunning}
                          title={t("blueGreenTitle", { minutes: String(drain.keepWarmMinutes) })}
                          onClick={() => blueGreen.mutate({ ...ref, endpointVersionId: v.id, keepWarmSeconds: drain.keepWarmMinutes * 60, drainTimeoutSeconds: drain.drainSeconds })}
                        >
                          {t("blueGreen")}
                        </button>
                      </>
                    )}
                    {v.weight === 0 && v.state !== "draining" && (
                      <button disabled={busy} onClick={() => remove.mutate({ ...ref, endpointVersionId: v.id, drainTimeoutSeconds: 30 })}>
                        {t("remove")}
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
