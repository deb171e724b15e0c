import type { PrometheusClient } from "../metrics/prometheus-client.ts";
import { autoscaleQueries } from "../metrics/promql.ts";
import type { AutoscaleSignalKind } from "./decide.ts";

/** A version's signal per ready replica (KV-cache use: the mean share); null when Prometheus has no answer. */
export async function readSignal(prom: PrometheusClient, signal: AutoscaleSignalKind, versionId: string, ready: number): Promise<number | null> {
  if (ready === 0) return null;
  const query = signal === "kv_cache_usage" ? autoscaleQueries.kvCache(versionId) : signal === "waiting_per_replica" ? autoscaleQueries.waiting(versionId) : autoscaleQueries.inFlight(versionId);
  try {
    const v = await prom.query(query);
    const x = v.length ? Number(v[0]!.value[1]) : NaN;
    if (!Number.isFinite(x)) return null;
    return signal === "kv_cache_usage" ? x : x / ready;
  } catch {
    return null;
  }
}
