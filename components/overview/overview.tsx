"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { SlaBoard } from "@/components/metrics/sla-board";
import { TenantCharts } from "@/components/metrics/tenant-charts";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";
import { PageHead } from "@/components/ui/page-head";
import { DriverNotice } from "@/components/cluster/driver-notice";
import { regionBadge } from "@/components/cluster/types";

export function StaffOverview({ canSeeEndpoints }: { canSeeEndpoints: boolean }) {
  const trpc = useTRPC();
  const pools = useQuery(trpc.cluster.nodePools.queryOptions(undefined, PANEL_QUERY));
  const status = useQuery(trpc.system.status.queryOptions(undefined, { refetchInterval: 10_000 }));
  const endpoints = useQuery(trpc.endpoint.list.queryOptions(undefined, { enabled: canSeeEndpoints }));
  const totals = (pools.data ?? []).reduce((t, p) => ({ nodes: t.nodes + p.nodes, ready: t.ready + p.readyNodes, gpus: t.gpus + p.gpus }), { nodes: 0, ready: 0, gpus: 0 });
  return (
    <>
      <PageHead title="Overview">The cluster and what it serves.</PageHead>
      {canSeeEndpoints && <SlaBoard />}
      {status.data && <SystemNotices status={status.data} />}
      <div className="stats">
        <div className="stat">
          <b>{pools.data?.length ?? "…"}</b>
          <span>node pools</span>
        </div>
        <div className="stat">
          <b>
            {totals.ready}/{totals.nodes}
          </b>
          <span>nodes ready</span>
        </div>
        <div className="stat">
          <b>{totals.gpus}</b>
          <span>GPUs</span>
        </div>
        {canSeeEndpoints && (
          <div className="stat">
            <b>{endpoints.data?.length ?? "…"}</b>
            <span>endpoints</span>
          </div>
        )}
      </div>
      <div className="panel">
        <h2>Node pools</h2>
        <QueryState
          query={pools}
          what="node pools"
          empty={
            <Empty title="No cluster yet">
              Run <code>npm run db:seed</code> to load the reference cluster.
            </Empty>
          }
        >
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>Pool</th>
                  <th>Region</th>
                  <th>Nodes</th>
                  <th>GPUs</th>
                </tr>
              </thead>
              <tbody>
                {data.map((p) => (
                  <tr key={p.id}>
                    <td>{p.name}</td>
                    <td>
                      <span className={regionBadge(p.region)}>{p.region}</span>
                    </td>
                    <td>
                      {p.readyNodes}/{p.nodes} ready
                    </td>
                    <td>{p.gpus ? `${p.gpus} × ${p.gpuModels.join(", ")}` : <span className="muted">CPU only</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
    </>
  );
}

type Status = inferRouterOutputs<AppRouter>["system"]["status"];

/** Says plainly what is off and how to turn it on, rather than showing empty charts. */
function SystemNotices({ status }: { status: Status }) {
  return (
    <>
      <div className="notice" role="note">
        <DriverNotice driver={status.cluster} /> <Link href="/cluster">Open the cluster</Link>.
      </div>
      {status.cluster.kind === "sim" && !status.simulator.reachable && (
        <div className="form-error" role="note" style={{ marginBottom: 18 }}>
          The cluster simulator does not answer{status.simulator.url && ` at ${status.simulator.url}`}. Start it with <code>npm run sim</code> (or <code>npm run demo</code>).
        </div>
      )}
      {!status.prometheus.reachable && (
        <div className="form-error" role="note" style={{ marginBottom: 18 }} data-testid="metrics-off">
          <b>Metrics are off</b>
          {status.prometheus.configured ? `: Prometheus${status.prometheus.url ? ` at ${status.prometheus.url}` : ""} does not answer.` : ": no Prometheus is configured."} {status.prometheus.howTo}
        </div>
      )}
    </>
  );
}

export function TenantOverview({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const tenant = useQuery(trpc.tenant.get.queryOptions({ id: tenantId }));
  const catalog = useQuery(trpc.endpoint.catalog.queryOptions(undefined, PANEL_QUERY));
  return (
    <>
      <PageHead
        title={tenant.data?.name ?? "Your tenant"}
        action={
          <Link className="button primary" href="/api-keys">
            Manage API keys
          </Link>
        }
      >
        {tenant.data?.kvkk ? "Your calls are served only in Turkey: your contract forbids transfers abroad (KVKK Art. 9)." : "Your models, keys and usage."}
      </PageHead>
      <TenantCharts />
      <div className="panel">
        <h2>Models you can call</h2>
        <QueryState query={catalog} what="models" empty={<Empty title="No endpoints yet">Your operator has not published any model yet.</Empty>}>
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>Endpoint</th>
                  <th>
                    API <code>model</code>
                  </th>
                  <th>Task</th>
                </tr>
              </thead>
              <tbody>
                {data.map((e) => (
                  <tr key={e.id}>
                    <td>{e.name}</td>
                    <td>
                      <code>{e.slug}</code>
                    </td>
                    <td>{e.model.task}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
    </>
  );
}
