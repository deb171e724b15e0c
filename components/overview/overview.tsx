"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
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
  const t = useTranslations("overview.staff");
  const fmt = useFormat();
  const totals = (pools.data ?? []).reduce((t, p) => ({ nodes: t.nodes + p.nodes, ready: t.ready + p.readyNodes, gpus: t.gpus + p.gpus }), { nodes: 0, ready: 0, gpus: 0 });
  return (
    <>
      <PageHead title={t("title")}>{t("intro")}</PageHead>
      {canSeeEndpoints && <SlaBoard />}
      {status.data && <SystemNotices status={status.data} />}
      <div className="stats">
        <div className="stat">
          <b>{pools.data ? fmt.number(pools.data.length) : "…"}</b>
          <span>{t("nodePools")}</span>
        </div>
        <div className="stat">
          <b>
            {fmt.number(totals.ready)}/{fmt.number(totals.nodes)}
          </b>
          <span>{t("nodesReady")}</span>
        </div>
        <div className="stat">
          <b>{fmt.number(totals.gpus)}</b>
          <span>{t("gpus")}</span>
        </div>
        {canSeeEndpoints && (
          <div className="stat">
            <b>{endpoints.data ? fmt.number(endpoints.data.length) : "…"}</b>
            <span>{t("endpoints")}</span>
          </div>
        )}
      </div>
      <div className="panel">
        <h2>{t("poolsTitle")}</h2>
        <QueryState
          query={pools}
          what={t("poolsWhat")}
          empty={
            <Empty title={t("noCluster")}>{t.rich("noClusterHint", { code: (c) => <code>{c}</code> })}</Empty>
          }
        >
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>{t("colPool")}</th>
                  <th>{t("colRegion")}</th>
                  <th>{t("colNodes")}</th>
                  <th>{t("colGpus")}</th>
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
                      {t("ready", { ready: String(p.readyNodes), nodes: String(p.nodes) })}
                    </td>
                    <td>{p.gpus ? `${p.gpus} × ${p.gpuModels.join(", ")}` : <span className="muted">{t("cpuOnly")}</span>}</td>
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
  const t = useTranslations("overview.notices");
  const code = (c: ReactNode) => <code>{c}</code>;
  const prom = status.prometheus;
  return (
    <>
      <div className="notice" role="note">
        <DriverNotice driver={status.cluster} /> <Link href="/cluster">{t("openCluster")}</Link>.
      </div>
      {status.cluster.kind === "sim" && !status.simulator.reachable && (
        <div className="form-error" role="note" style={{ marginBottom: 18 }}>
          {status.simulator.url ? t.rich("simDownAt", { url: status.simulator.url, code }) : t.rich("simDown", { code })}
        </div>
      )}
      {!status.prometheus.reachable && (
        <div className="form-error" role="note" style={{ marginBottom: 18 }} data-testid="metrics-off">
          <b>{t("metricsOff")}</b>
          {prom.configured ? (prom.url ? t("promDownAt", { url: prom.url }) : t("promDown")) : t("noProm")} {prom.howTo}
        </div>
      )}
    </>
  );
}

export function TenantOverview({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const tenant = useQuery(trpc.tenant.get.queryOptions({ id: tenantId }));
  const catalog = useQuery(trpc.endpoint.catalog.queryOptions(undefined, PANEL_QUERY));
  const t = useTranslations("overview.tenant");
  const tt = useTranslations("models.task");
  return (
    <>
      <PageHead
        title={tenant.data?.name ?? t("yourTenant")}
        action={
          <Link className="button primary" href="/api-keys">
            {t("manageKeys")}
          </Link>
        }
      >
        {tenant.data?.kvkk ? t("kvkk") : t("intro")}
      </PageHead>
      <TenantCharts />
      <div className="panel">
        <h2>{t("modelsTitle")}</h2>
        <QueryState query={catalog} what={t("what")} empty={<Empty title={t("noEndpoints")}>{t("noEndpointsHint")}</Empty>}>
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>{t("colEndpoint")}</th>
                  <th>{t.rich("colModel", { code: (c) => <code>{c}</code> })}</th>
                  <th>{t("colTask")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((e) => (
                  <tr key={e.id}>
                    <td>{e.name}</td>
                    <td>
                      <code>{e.slug}</code>
                    </td>
                    <td>{tt(e.model.task)}</td>
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
