"use client";

import Link from "next/link";
import { StateBadge } from "@/components/ui/state-badge";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { FaultPanel } from "./fault-panel";
import { DriverNotice } from "./driver-notice";
import { FleetHeatmap } from "./fleet-heatmap";
import { GpuCard } from "./gpu-card";
import { ReplicaLine } from "./replica-line";
import { useClusterActions } from "./use-cluster-actions";
import { regionBadge, replicasOfNode, type ClusterView, type NodeView } from "./types";
import styles from "./cluster.module.css";
import { PageHead } from "@/components/ui/page-head";

export function ClusterPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  // The driver reports replica and node events as they happen: poll so the page follows them.
  const view = useQuery(trpc.cluster.view.queryOptions(undefined, { ...PANEL_QUERY, refetchInterval: 2000 }));
  return (
    <>
      <PageHead title="Cluster">Node pools, their nodes and GPUs, MIG layouts and the replicas that serve each endpoint.</PageHead>
      <QueryState query={view} what="the cluster" isEmpty={(d) => !d} empty={<Empty title="The cluster could not be loaded">It is retried every few seconds.</Empty>}>
        {(data) => <ClusterBody view={data} canWrite={canWrite} />}
      </QueryState>
    </>
  );
}

function ClusterBody({ view, canWrite }: { view: ClusterView; canWrite: boolean }) {
  const nodes = view.pools.flatMap((p) => p.nodes);
  const replicas = nodes.flatMap(replicasOfNode);
  const count = (state: string) => replicas.filter((r) => r.state === state).length;
  return (
    <>
      {view.driver.reachable ? (
        <div className="notice">
          <DriverNotice driver={view.driver} />
        </div>
      ) : view.driver.kind === "sim" ? (
        <div className={`form-error ${styles.banner}`} role="alert">
          The cluster simulator at <code>{view.driver.url}</code> does not answer: start it with <code>npm run sim</code> (or <code>npm run demo</code>). Below is the database&apos;s view of the
          cluster.
        </div>
      ) : (
        <div className={`form-error ${styles.banner}`} role="alert">
          The Kubernetes API server at <code>{view.driver.url}</code> does not answer; Kule keeps trying. Below is the database&apos;s view of the cluster.
        </div>
      )}
      {view.pools.length === 0 ? (
        <div className="panel">
          <Empty title="No cluster yet">
            Run <code>npm run db:seed</code> to create the reference cluster.
          </Empty>
        </div>
      ) : (
        <>
          <div className="stats">
            <div className="stat">
              <b>
                {nodes.filter((n) => n.status === "ready").length}/{nodes.length}
              </b>
              <span>nodes ready</span>
            </div>
            <div className="stat">
              <b>{nodes.reduce((s, n) => s + n.gpus.length, 0)}</b>
              <span>GPUs</span>
            </div>
            <div className="stat">
              <b>{count("ready")}</b>
              <span>replicas running (ready)</span>
            </div>
            <div className="stat">
              <b>{count("loading")}</b>
              <span>replicas loading</span>
            </div>
            <div className="stat">
              <b>{count("failed")}</b>
              <span>replicas failed</span>
            </div>
          </div>
          <FleetHeatmap view={view} />
          {canWrite && <FaultPanel view={view} />}
          {view.pools.map((p) => (
            <section key={p.id} className={styles.pool}>
              <h2>
                {p.name} <span className={regionBadge(p.region)}>{p.region}</span> <span className="muted">{p.cluster}</span>
              </h2>
              {p.nodes.length === 0 ? <p className="muted">No node in this pool.</p> : p.nodes.map((n) => <NodePanel key={n.id} node={n} canWrite={canWrite} />)}
            </section>
          ))}
        </>
      )}
    </>
  );
}

function NodePanel({ node: n, canWrite }: { node: NodeView; canWrite: boolean }) {
  const { fault, cordon, busy } = useClusterActions();
  return (
    <div className="panel" role="region" aria-label={n.hostname}>
      <div className={styles.nodeHead}>
        <div>
          <h3 className={styles.hostname}>
            <span className="mono">{n.hostname}</span> <span className={regionBadge(n.region)}>{n.region}</span>{" "}
            {n.gpus.length > 0 && (
              <Link href={`/cluster/nodes/${encodeURIComponent(n.hostname)}`} style={{ fontSize: 13, fontWeight: 400 }}>
                GPU charts
              </Link>
            )}{" "}
            <StateBadge state={n.status} />
            {n.cordoned && (
              <>
                {" "}
                <span className="badge badge-warn">cordoned</span>
              </>
            )}
          </h3>
          <span className="muted">
            {n.cpuModel} · {n.cpuCores} cores · {n.gpus.length ? `${n.gpus.length} GPU${n.gpus.length > 1 ? "s" : ""}` : "CPU only"}
          </span>
        </div>
        {canWrite && (
          <div className={styles.buttons}>
            <button type="button" disabled={busy} onClick={() => cordon.mutate({ nodeId: n.id, cordoned: !n.cordoned })}>
              {n.cordoned ? "Uncordon" : "Cordon"}
            </button>
            {n.status === "down" ? (
              <button type="button" disabled={busy} onClick={() => fault.mutate({ type: "node-status", nodeId: n.id, status: "ready" })}>
                Bring node up
              </button>
            ) : (
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() => confirm(`Take ${n.hostname} down? Its replicas fail.`) && fault.mutate({ type: "node-status", nodeId: n.id, status: "down" })}
              >
                Take node down
              </button>
            )}
          </div>
        )}
      </div>
      {n.cpuReplicas.length > 0 && (
        <div className={styles.cpu}>
          <b>On the CPU</b>
          {n.cpuReplicas.map((r) => (
            <ReplicaLine key={r.id} replica={r} canWrite={canWrite} />
          ))}
        </div>
      )}
      {n.gpus.length > 0 && (
        <div className={styles.gpus}>
          {n.gpus.map((g) => (
            <GpuCard key={g.id} gpu={g} node={n} canWrite={canWrite} />
          ))}
        </div>
      )}
    </div>
  );
}
