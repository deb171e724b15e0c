"use client";

import Link from "next/link";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { TrafficPanel } from "./traffic-panel";
import { CanaryPlan } from "./canary-plan";
import { PredictedPanel } from "@/components/planner/predicted-panel";
import { DeployForm } from "./deploy-form";
import { RolloutHistory } from "./rollout-history";
import { ReplicasPanel } from "./replicas-panel";
import { AutoscalePanel } from "./autoscale-panel";
import { EndpointCharts, usePrefetchEndpointCharts } from "@/components/metrics/endpoint-charts";
import { EndpointSla } from "@/components/metrics/endpoint-sla";
import { PageHead } from "@/components/ui/page-head";
import { EndpointSettings } from "./endpoint-settings";
import { AlertTable } from "@/components/alerts/alert-table";
import { RoutingPanel } from "./routing-panel";

export function EndpointDetail({ id, canWrite, canPlan }: { id: string; canWrite: boolean; canPlan: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("endpoints.detail");
  const fmt = useFormat();
  // Replicas load and fail on their own: keep the page live.
  const endpoint = useQuery(trpc.endpoint.get.queryOptions({ id }, { ...PANEL_QUERY, refetchInterval: 2000 }));
  // Ask for the charts in the same request as the endpoint, not after it arrives (first data sooner).
  usePrefetchEndpointCharts(id);
  const plan = useQuery(trpc.rollout.active.queryOptions({ endpointId: id }, { refetchInterval: 1000 }));
  const planRunning = plan.data?.state === "running";
  const [editing, setEditing] = useState(false);
  const gate = queryGate(
    endpoint,
    t("what"),
    <Empty title={t("notFound")}>
      <Link href="/endpoints">{t("back")}</Link>
    </Empty>,
  );
  if (gate || !endpoint.data) return gate;
  const e = endpoint.data;
  return (
    <>
      <PageHead title={e.name} action={canWrite && !e.retiredAt && !editing && <button onClick={() => setEditing(true)}>{t("editOrRetire")}</button>}>
        {t.rich("head", { slug: e.slug, model: e.model.name, engine: e.engine, pool: e.nodePool.name, code: (c) => <code>{c}</code>, link: (c) => <Link href={`/models/${e.model.id}`}>{c}</Link> })} <span className="badge">{e.nodePool.region}</span>
        {e.regionConstraint && <span className="badge badge-kvkk">{t("onlyRegion", { region: e.regionConstraint })}</span>}
        {e.stickySessions && <span className="badge">{t("sticky")}</span>}
        {e.retiredAt && <span className="badge badge-danger">{t("retired", { date: fmt.date(e.retiredAt) })}</span>}
      </PageHead>
      {editing && <EndpointSettings endpoint={e} onDone={() => setEditing(false)} />}
      <div className="stats">
        <div className="stat">
          <b>{fmt.number(Number(e.sloAvailabilityPct), 3)}%</b>
          <span>{t("availabilitySlo")}</span>
        </div>
        <div className="stat">
          <b>{fmt.number(e.sloP99LatencyMs)} ms</b>
          <span>{t("p99Slo")}</span>
        </div>
        <div className="stat">
          <b>{e.sloTtftMs ? `${fmt.number(e.sloTtftMs)} ms` : "—"}</b>
          <span>{t("ttftSlo")}</span>
        </div>
        <div className="stat">
          <b>r{e.revision}</b>
          <span>{t("revision")}</span>
        </div>
      </div>
      <EndpointSla endpoint={e} canWrite={canWrite} />
      <AlertTable endpointId={e.id} title={t("alertHistory")} />
      <EndpointCharts endpointId={e.id} />
      {canPlan && <PredictedPanel endpointId={e.id} />}
      <TrafficPanel endpoint={e} canWrite={canWrite} planRunning={planRunning} />
      <RoutingPanel endpoint={e} canWrite={canWrite} />
      <CanaryPlan endpoint={e} canWrite={canWrite} />
      {canWrite && <DeployForm endpoint={e} />}
      <ReplicasPanel endpoint={e} canWrite={canWrite} />
      <AutoscalePanel endpointId={e.id} canWrite={canWrite && !e.retiredAt} />
      <RolloutHistory endpointId={e.id} />
    </>
  );
}
