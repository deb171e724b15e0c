"use client";

import Link from "next/link";
import { useState } from "react";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "use-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { useErrorText } from "@/components/trpc/use-error-text";
import { useUnits } from "@/components/models/units";
import { DeployFit } from "./deploy-fit";
import { readDeployLayout } from "@/components/planner/deploy-link";
import { parallelismText } from "@/server/shared/memory-rule";

type Endpoint = inferRouterOutputs<AppRouter>["endpoint"]["get"];

/**
 * Deploy a version beside the live one: Kule places the replicas on free devices of the pool that
 * fit, or says before starting anything why they don't. Progress shows in the replicas panel.
 * Opened from the capacity planner, it comes filled with the plan's version, replicas and split.
 */
export function DeployForm({ endpoint }: { endpoint: Endpoint }) {
  const { errorText } = useErrorText();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const t = useTranslations("endpoints.deploy");
  const { gb } = useUnits();
  const model = useQuery(trpc.model.get.queryOptions({ id: endpoint.model.id }));
  const params = useSearchParams();
  const layout = params ? readDeployLayout(params) : null;
  const [versionId, setVersionId] = useState(layout?.modelVersionId ?? "");
  const [replicas, setReplicas] = useState(layout?.replicas ?? 1);
  // The planner's split holds for the version it was planned for; choosing another drops it.
  const parallelism = layout && layout.modelVersionId === versionId ? layout.parallelism : undefined;
  const deploy = useMutation(
    trpc.rollout.deploy.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: (r) => {
        qc.setQueryData(trpc.endpoint.get.queryKey({ id: endpoint.id }), r.endpoint);
        void qc.invalidateQueries({ queryKey: trpc.rollout.history.queryKey({ endpointId: endpoint.id }) });
        setVersionId("");
        toast.success(t("deploying", { count: r.replicas.length }));
      },
    }),
  );
  const serving = new Set(endpoint.versions.filter((v) => v.state === "draining").map((v) => v.modelVersion.id));
  const candidates = model.data?.versions.filter((v) => !serving.has(v.id) && !v.retiredAt) ?? [];
  const chosen = candidates.find((v) => v.id === versionId);
  return (
    <div className="panel" id="deploy">
      <h2>{t("title")}</h2>
      {parallelism && <p className="notice">{t("fromPlanner", { split: parallelismText(parallelism), replicas })}</p>}
      {candidates.length === 0 ? (
        <p className="muted">
          {t.rich("noVersion", { model: endpoint.model.name, link: (c) => <Link href={`/models/${endpoint.model.id}`}>{c}</Link> })}
        </p>
      ) : (
        <>
          <div className="actions">
            <select aria-label={t("versionAria")} value={versionId} onChange={(e) => (setVersionId(e.target.value), deploy.reset())} style={{ maxWidth: 260 }}>
              <option value="">{t("chooseVersion")}</option>
              {candidates.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.version} · {v.precision} · {t("needs", { size: gb(v.minGpuMemoryBytes) })}
                </option>
              ))}
            </select>
            <label className="muted" htmlFor="deploy-replicas">
              {t("replicas")}
            </label>
            <input id="deploy-replicas" type="number" min={1} max={16} value={replicas} onChange={(e) => setReplicas(Math.max(1, Math.min(16, Math.round(Number(e.target.value) || 1))))} style={{ width: 70 }} />
            <button className="primary" disabled={!versionId || deploy.isPending} onClick={() => deploy.mutate({ endpointId: endpoint.id, modelVersionId: versionId, replicas, parallelism, expectedRevision: endpoint.revision })}>
              {deploy.isPending ? t("placing") : t("submit")}
            </button>
          </div>
          {chosen && <p className="muted">{t("placedOn", { pool: endpoint.nodePool.name, size: gb(chosen.minGpuMemoryBytes) })}</p>}
          {chosen && <DeployFit endpointId={endpoint.id} modelVersionId={chosen.id} version={chosen.version} parallelism={parallelism} />}
          {deploy.error && (
            <div className="form-error" role="alert" style={{ marginTop: 8 }}>
              {errorText(deploy.error)}
            </div>
          )}
        </>
      )}
    </div>
  );
}
