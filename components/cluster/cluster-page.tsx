"use client";

import { useState, type ReactNode } from "react";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PageHead } from "@/components/ui/page-head";
import { FaultPanel } from "./fault-panel";
import { DriverNotice } from "./driver-notice";
import { FleetHeatmap } from "./fleet-heatmap";
import { MigStateBadge } from "./mig-state";
import { NodeList } from "./node-list";
import { regionBadge, type ClusterSummary, type NodeListFilters } from "./types";
import styles from "./cluster.module.css";

/**
 * The cluster at fleet scale: counts per pool, the heat map as the overview, and the nodes a
 * page at a time, narrowed by search and filters, each opened on demand. Nothing on the page
 * loads every node's GPUs and replicas at once.
 */
export function ClusterPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  // The driver reports replica and node events as they happen: poll so the page follows them.
  const summary = useQuery(trpc.cluster.summary.queryOptions(undefined, { ...PANEL_QUERY, refetchInterval: 3000 }));
  const t = useTranslations("cluster.page");
  return (
    <>
      <PageHead title={t("title")}>{t("intro")}</PageHead>
      <QueryState query={summary} what={t("what")} isEmpty={() => false}>
        {(data) => <ClusterBody summary={data} canWrite={canWrite} />}
      </QueryState>
    </>
  );
}

function ClusterBody({ summary: s, canWrite }: { summary: ClusterSummary; canWrite: boolean }) {
  const [filters, setFilters] = useState<NodeListFilters>({});
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (hostname: string) => setOpen((o) => (o.has(hostname) ? new Set([...o].filter((h) => h !== hostname)) : new Set([...o, hostname])));
  // From the heat map: find the node in the list and open it.
  const openNode = (hostname: string) => {
    setFilters({ search: hostname });
    setOpen((o) => new Set([...o, hostname]));
  };
  const t = useTranslations("cluster.page");
  const fmt = useFormat();
  const code = (c: ReactNode) => <code>{c}</code>;
  const totals = s.totals;
  return (
    <>
      {s.driver.reachable ? (
        <div className="notice">
          <DriverNotice driver={s.driver} />
        </div>
      ) : s.driver.kind === "sim" ? (
        <div className={`form-error ${styles.banner}`} role="alert">
          {t.rich("simDown", { url: s.driver.url, code })}
        </div>
      ) : (
        <div className={`form-error ${styles.banner}`} role="alert">
          {t.rich("k8sDown", { url: s.driver.url, code })}
        </div>
      )}
      {s.pools.length === 0 ? (
        <div className="panel">
          <Empty title={t("noPools")}>{t("noPoolsHint")}</Empty>
        </div>
      ) : (
        <>
          <div className="stats">
            <Stat value={`${fmt.number(totals.readyNodes)}/${fmt.number(totals.nodes)}`} label={t("nodesReady")} />
            <Stat value={fmt.number(totals.gpus)} label={t("gpus")} />
            <Stat value={fmt.number(totals.replicas.ready)} label={t("replicasRunning")} />
            <Stat value={fmt.number(totals.replicas.loading + totals.replicas.pending)} label={t("replicasStarting")} />
            <Stat value={fmt.number(totals.replicas.failed)} label={t("replicasFailed")} />
          </div>
          <div className="panel" role="region" aria-label={t("pools")}>
            <h2>{t("pools")}</h2>
            <table>
              <thead>
                <tr>
                  <th>{t("colPool")}</th>
                  <th>{t("colRegion")}</th>
                  <th>{t("colNodesReady")}</th>
                  <th>{t("colGpus")}</th>
                  <th>{t("colReplicas")}</th>
                </tr>
              </thead>
              <tbody>
                {s.pools.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <button type="button" className={styles.link} onClick={() => setFilters({ poolId: p.id })}>
                        {p.name}
                      </button>{" "}
                      <span className="muted">{p.cluster}</span>
                    </td>
                    <td>
                      <span className={regionBadge(p.region)}>{p.region}</span>
                    </td>
                    <td>
                      {p.readyNodes}/{p.nodes}
                      {p.cordonedNodes ? ` · ${t("cordonedCount", { count: p.cordonedNodes })}` : ""}
                    </td>
                    <td>
                      {p.gpus}
                      {p.migGpus ? ` (${p.migGpus})` : ""}
                    </td>
                    <td>
                      {p.replicas.ready} / {p.replicas.loading + p.replicas.pending} / {p.replicas.failed}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {s.migChanges.length > 0 && (
            <div className="panel" role="region" aria-label={t("migChanges")}>
              <h2>{t("migChangesTitle")}</h2>
              <ul>
                {s.migChanges.map((m) => (
                  <li key={m.hostname}>
                    <button type="button" className={styles.link} onClick={() => openNode(m.hostname)}>
                      {m.hostname}
                    </button>{" "}
                    <MigStateBadge mig={m} />
                  </li>
                ))}
              </ul>
            </div>
          )}
          <FleetHeatmap onOpenNode={openNode} />
          {canWrite && s.driver.faults && <FaultPanel summary={s} />}
          {/* Keyed by its filters: new filters start again at the first page. */}
          <NodeList key={JSON.stringify(filters)} summary={s} canWrite={canWrite} filters={filters} onFilters={setFilters} open={open} onOpen={toggle} />
        </>
      )}
    </>
  );
}

function Stat({ value, label }: { value: number | string; label: string }) {
  return (
    <div className="stat">
      <b>{value}</b>
      <span>{label}</span>
    </div>
  );
}
