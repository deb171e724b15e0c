/**
 * Kule's Prometheus service discovery (http_sd): one target per serving replica Kule knows,
 * whatever its driver, at the address where its engine publishes metrics (vLLM's API port,
 * Triton's metrics port), with Kule's labels attached as target labels. Real exporters never
 * carry `kule_*` labels: every query that selects on them works because the targets come from
 * here, not from job names.
 */
import type { PrismaClient } from "../../db/generated/client.ts";
import type { ServingEngine } from "../../db/generated/enums.ts";

/** One entry of Prometheus' http_sd JSON. */
export interface SdTargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

export interface ReplicaTarget {
  id: string;
  endpointSlug: string;
  versionLabel: string;
  versionId: string;
  engine: ServingEngine;
  driver: string;
  region: string;
  /** Where its engine's /metrics is: reported by the driver, or derived from the engine for external servers. */
  metricsUrl: string;
  /** The engine's --max-num-seqs when the driver chose it; vLLM does not export it. */
  maxNumSeqs: number | null;
  node: string | null;
}

/** A metrics URL as Prometheus scrapes it: host:port, scheme and path (a query string is not carried). */
export function scrapeAddress(metricsUrl: string): { target: string; scheme: string; path: string } {
  const u = new URL(metricsUrl);
  const scheme = u.protocol.replace(/:$/, "");
  const port = u.port || (scheme === "https" ? "443" : "80");
  return { target: `${u.hostname}:${port}`, scheme, path: u.pathname || "/metrics" };
}

/** The http_sd groups of these replicas: one per replica, so each carries its own labels. */
export function replicaTargetGroups(replicas: ReplicaTarget[]): SdTargetGroup[] {
  return replicas.map((r) => {
    const { target, scheme, path } = scrapeAddress(r.metricsUrl);
    const labels: Record<string, string> = {
      __scheme__: scheme,
      __metrics_path__: path,
      kule_replica: r.id,
      kule_endpoint: r.endpointSlug,
      kule_version: r.versionLabel,
      kule_version_id: r.versionId,
      kule_engine: r.engine,
      kule_driver: r.driver,
      kule_region: r.region,
    };
    if (r.node) labels.kule_node = r.node;
    // Batch fill (running ÷ maximum batch) needs it; left out where unknown rather than guessed.
    if (r.maxNumSeqs) labels.kule_max_num_seqs = String(r.maxNumSeqs);
    return { targets: [target], labels };
  });
}

/**
 * Every replica serving or draining (its engine still reports while in-flight requests finish),
 * from the Replica table: the simulator's, external servers and, when it lands, Kubernetes pods.
 */
export async function discoverReplicas(db: PrismaClient): Promise<SdTargetGroup[]> {
  const rows = await db.replica.findMany({
    where: { state: { in: ["ready", "draining"] }, metricsUrl: { not: null } },
    select: {
      id: true,
      driver: true,
      region: true,
      metricsUrl: true,
      maxNumSeqs: true,
      node: { select: { hostname: true } },
      endpointVersion: { select: { id: true, endpoint: { select: { slug: true, engine: true } }, modelVersion: { select: { version: true } } } },
    },
    orderBy: { createdAt: "asc" },
  });
  return replicaTargetGroups(
    rows.map((r) => ({
      id: r.id,
      endpointSlug: r.endpointVersion.endpoint.slug,
      versionLabel: r.endpointVersion.modelVersion.version,
      versionId: r.endpointVersion.id,
      engine: r.endpointVersion.endpoint.engine,
      driver: r.driver,
      region: r.region,
      metricsUrl: r.metricsUrl!,
      maxNumSeqs: r.maxNumSeqs,
      node: r.node?.hostname ?? null,
    })),
  );
}
