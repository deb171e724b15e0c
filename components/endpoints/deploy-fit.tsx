"use client";

import { useTranslations } from "use-intl";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { parallelismText } from "@/server/shared/memory-rule";

const GiB = 2 ** 30;

/**
 * The memory split of a version over the pool's GPUs, split by split (server/shared/parallelism.ts),
 * before anything starts: what each GPU holds, the sequences the KV cache keeps, which split fits.
 */
export function DeployFit({ endpointId, modelVersionId, version, parallelism }: { endpointId: string; modelVersionId: string; version: string; parallelism?: { tensor: number; pipeline: number } }) {
  const trpc = useTRPC();
  const t = useTranslations("endpoints.deploy");
  const fmt = useFormat();
  const fit = useQuery(trpc.rollout.fit.queryOptions({ endpointId, modelVersionId, parallelism }));
  const d = fit.data;
  if (!d || !d.gpuKind || d.lines.length === 0) return null;
  const gib = (b: number) => `${fmt.number(b / GiB, 1)} GiB`;
  const chosen = d.lines.find((l) => l.chosen && l.fits);
  return (
    <div style={{ marginTop: 8 }}>
      <p aria-live="polite">
        {chosen ? <b>{t("chosenSplit", { split: parallelismText(chosen.parallelism), gpus: String(chosen.gpus), weights: gib(chosen.weightBytesPerGpu), kv: gib(chosen.kvBytesPerGpu), sequences: String(chosen.sequences), context: fmt.number(d.contextTokens, 0) })}</b> : <span className="form-error">{t("noSplit", { gpu: d.gpuKind })}</span>}
      </p>
      <table aria-label={t("fitTitle", { version, gpu: d.gpuKind, context: fmt.number(d.contextTokens, 0), batch: String(d.maxBatch ?? 1) })}>
        <caption className="muted" style={{ textAlign: "left" }}>
          {t("fitCaption")}
        </caption>
        <thead>
          <tr>
            <th>{t("colSplit")}</th>
            <th>{t("colWeights")}</th>
            <th>{t("colKv")}</th>
            <th>{t("colSequences")}</th>
            <th>{t("colFits")}</th>
          </tr>
        </thead>
        <tbody>
          {d.lines.map((l) => (
            <tr key={parallelismText(l.parallelism)} aria-current={l.chosen ? "true" : undefined} style={l.chosen ? { background: "#e3ecfb", fontWeight: 600 } : undefined}>
              <td>
                {parallelismText(l.parallelism)} ({l.gpus})
              </td>
              <td>{gib(l.weightBytesPerGpu)}</td>
              <td>{l.fits ? gib(l.kvBytesPerGpu) : "—"}</td>
              <td>{l.fits ? l.sequences : "—"}</td>
              <td>{l.fits ? t("fitsYes") : t("fitsNo", { size: gib(l.needBytesPerGpu) })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
