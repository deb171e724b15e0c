"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { StateBadge } from "@/components/ui/state-badge";
import { NodeFilters } from "./node-filters";
import { NodePanel } from "./node-panel";
import { MigStateBadge } from "./mig-state";
import { regionBadge, type ClusterSummary, type NodeListFilters, type NodeRow } from "./types";
import styles from "./cluster.module.css";

const PAGE = 25;

/**
 * The fleet's nodes a page at a time, narrowed on the server by search and filters; a node opens
 * in place (its GPUs, MIG and replicas are loaded then, not before).
 */
export function NodeList({ summary, canWrite, filters, onFilters, open, onOpen }: { summary: ClusterSummary; canWrite: boolean; filters: NodeListFilters; onFilters: (f: NodeListFilters) => void; open: Set<string>; onOpen: (hostname: string) => void }) {
  const trpc = useTRPC();
  // The hostname each page starts after: the first page's is undefined.
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const after = pages.at(-1);
  const list = useQuery(trpc.cluster.nodes.queryOptions({ ...filters, after, limit: PAGE }, { ...PANEL_QUERY, refetchInterval: 3000, placeholderData: keepPreviousData }));
  const t = useTranslations("cluster.nodes");
  const setFilters = (f: NodeListFilters) => {
    setPages([undefined]);
    onFilters(f);
  };
  return (
    <div className="panel" role="region" aria-label={t("region")}>
      <h2>{t("title")}</h2>
      <NodeFilters summary={summary} filters={filters} onChange={setFilters} />
      <QueryState query={list} what={t("what")} isEmpty={(d) => d.total === 0} empty={<Empty title={t("noMatch")}>{t("noMatchHint")}</Empty>}>
        {(d) => (
          <>
            <p className="muted" role="status">
              {t("count", { count: d.total })} · {pages.length > 1 ? t("fromNth", { n: String((pages.length - 1) * PAGE + 1) }) : t("fromFirst")}
            </p>
            <ul className={styles.nodeList}>
              {d.nodes.map((n) => (
                <li key={n.id}>
                  <NodeLine node={n} expanded={open.has(n.hostname)} onToggle={() => onOpen(n.hostname)} />
                  {open.has(n.hostname) && <NodePanel hostname={n.hostname} canWrite={canWrite} faults={summary.driver.faults} />}
                </li>
              ))}
            </ul>
            <div className="actions">
              <button type="button" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
                {t("previous")}
              </button>
              <button type="button" disabled={!d.next} onClick={() => d.next && setPages([...pages, d.next])}>
                {t("next", { count: String(PAGE) })}
              </button>
            </div>
          </>
        )}
      </QueryState>
    </div>
  );
}

/** A node collapsed to one line: what an operator scans a fleet for. */
function NodeLine({ node: n, expanded, onToggle }: { node: NodeRow; expanded: boolean; onToggle: () => void }) {
  const r = n.replicas;
  const t = useTranslations("cluster.nodes");
  return (
    <div className={styles.nodeLine}>
      <button type="button" className={styles.nodeToggle} aria-expanded={expanded} onClick={onToggle}>
        <span aria-hidden="true">{expanded ? "▾" : "▸"}</span> <span className="mono">{n.hostname}</span>
      </button>
      <span className="muted">{n.pool}</span>
      <span className={regionBadge(n.region)}>{n.region}</span>
      <StateBadge state={n.status} />
      {n.cordoned && <span className="badge badge-warn">{t("cordoned")}</span>}
      <span className="muted">{n.gpus ? `${t("gpus", { count: String(n.gpus), models: n.gpuModels.join(", ") })}${n.migGpus ? t("inMig", { count: String(n.migGpus) }) : ""}` : t("cpuOnlyCores", { cores: String(n.cpuCores) })}</span>
      <span>
        {t("ready", { count: String(r.ready) })}
        {r.loading + r.pending ? t("starting", { count: String(r.loading + r.pending) }) : ""}
        {r.failed ? <span className="badge badge-danger">{t("failed", { count: String(r.failed) })}</span> : null}
      </span>
      {n.xids > 0 && <span className="badge badge-danger">{t("xidOn", { count: n.xids })}</span>}
      <MigStateBadge mig={n.mig} />
    </div>
  );
}
