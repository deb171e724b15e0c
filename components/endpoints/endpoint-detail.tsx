"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { TrafficPanel } from "./traffic-panel";
import { CanaryPlan } from "./canary-plan";
import { DeployForm } from "./deploy-form";
import { RolloutHistory } from "./rollout-history";
import { ReplicasPanel } from "./replicas-panel";
import { EndpointCharts, usePrefetchEndpointCharts } from "@/components/metrics/endpoint-charts";
import { EndpointSla } from "@/components/metrics/endpoint-sla";
import { PageHead } from "@/components/ui/page-head";
import { EndpointSettings } from "./endpoint-settings";
import { AlertTable } from "@/components/alerts/alert-table";

export function EndpointDetail({ id, canWrite }: { id: string; canWrite: boolean }) {
  const trpc = useTRPC();
  // Replicas load and fail on their own: keep the page live.
  const endpoint = useQuery(trpc.endpoint.get.queryOptions({ id }, { ...PANEL_QUERY, refetchInterval: 2000 }));
  // Ask for the charts in the same request as the endpoint, not after it arrives (first data sooner).
  usePrefetchEndpointCharts(id);
  const plan = useQuery(trpc.rollout.active.queryOptions({ endpointId: id }, { refetchInterval: 1000 }));
  const planRunning = plan.data?.state === "running";
  const [editing, setEditing] = useState(false);
  const gate = queryGate(
    endpoint,
    "the endpoint",
    <Empty title="Endpoint not found">
      <Link href="/endpoints">Back to endpoints</Link>
    </Empty>,
  );
  if (gate || !endpoint.data) return gate;
  const e = endpoint.data;
  return (
    <>
      <PageHead title={e.name} action={canWrite && !e.retiredAt && !editing && <button onClick={() => setEditing(true)}>Edit or retire…</button>}>
        API name <code>{e.slug}</code> · model <Link href={`/models/${e.model.id}`}>{e.model.name}</Link> · {e.engine} on {e.nodePool.name} <span className="badge">{e.nodePool.region}</span>
        {e.regionConstraint && <span className="badge badge-kvkk">only {e.regionConstraint}*</span>}
        {e.stickySessions && <span className="badge">sticky sessions</span>}
        {e.retiredAt && <span className="badge badge-danger">retired {new Date(e.retiredAt).toISOString().slice(0, 10)}</span>}
      </PageHead>
      {editing && <EndpointSettings endpoint={e} onDone={() => setEditing(false)} />}
      <div className="stats">
        <div className="stat">
          <b>{e.sloAvailabilityPct.toString()}%</b>
          <span>availability SLO</span>
        </div>
        <div className="stat">
          <b>{e.sloP99LatencyMs} ms</b>
          <span>p99 latency SLO</span>
        </div>
        <div className="stat">
          <b>{e.sloTtftMs ? `${e.sloTtftMs} ms` : "—"}</b>
          <span>TTFT SLO</span>
        </div>
        <div className="stat">
          <b>r{e.revision}</b>
          <span>revision</span>
        </div>
      </div>
      <EndpointSla endpoint={e} canWrite={canWrite} />
      <AlertTable endpointId={e.id} title="Alert history" />
      <EndpointCharts endpointId={e.id} />
      <TrafficPanel endpoint={e} canWrite={canWrite} planRunning={planRunning} />
      <CanaryPlan endpoint={e} canWrite={canWrite} />
      {canWrite && <DeployForm endpoint={e} />}
      <ReplicasPanel endpoint={e} canWrite={canWrite} />
      <RolloutHistory endpointId={e.id} />
    </>
  );
}
