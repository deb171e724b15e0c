import type { EndpointConfig, ReplicaConfig, TenantConfig, VersionConfig } from "./config.ts";
import { countryOf, inRegionRule, isInTurkey } from "../shared/regions.ts";

/**
 * KVKK Art. 9, for every tenant: a call is served in Turkey, or in a country a recorded safeguard
 * covers for this tenant (never for a tenant whose contract keeps it in Turkey). An external
 * server with an unverified region label is in an unknown country, which nothing covers, and so
 * is a label that names no country (eu-xyz). Special categories of personal data (a special
 * tenant's calls, or any call to a special endpoint) need an Art. 6(3) condition recorded for the
 * tenant besides the safeguard (Art. 9 as amended by Law 7499); without it they stay in Turkey.
 */
export function regionAllowed(replica: Pick<ReplicaConfig, "region" | "verified">, tenant: Pick<TenantConfig, "kvkk" | "abroad" | "specialAbroad">, e: Pick<EndpointConfig, "regionConstraint" | "special">): boolean {
  if (!inRegionRule(replica.region, e.regionConstraint)) return false;
  if (!replica.verified) return false;
  if (isInTurkey(replica.region)) return true;
  if (tenant.kvkk || (e.special && !tenant.specialAbroad)) return false;
  const country = countryOf(replica.region);
  return country !== null && tenant.abroad.has(country);
}

/** A stable number in [0, 100) from a session key, so one caller keeps to one version. */
export function stickyPoint(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10000) / 100;
}

/**
 * The version a request goes to: the endpoint's weights read as a line from 0 to 100 and `point`
 * placed on it (random per request, or the caller's sticky point). Versions with no replica the
 * caller may use are skipped, and the point spread over the rest, so a weight never strands a
 * request while another version can serve it.
 */
export function chooseVersion(versions: VersionConfig[], point: number, usable: (v: VersionConfig) => boolean): VersionConfig | null {
  const live = versions.filter((v) => v.weight > 0 && usable(v));
  const total = live.reduce((s, v) => s + v.weight, 0);
  if (total === 0) return null;
  let x = (point / 100) * total;
  for (const v of live) {
    if (x < v.weight) return v;
    x -= v.weight;
  }
  return live[live.length - 1]!;
}

/**
 * Smooth weighted round robin (as nginx does): each pick adds every live version's weight to its
 * running credit and takes the one with the most, which then pays the total back. Over any 100
 * consecutive picks each version gets its weight's share to within one request — a random draw
 * would stray by several points over a thousand requests. Credits live on the loaded config, so
 * a new config (new weights) starts afresh.
 */
export function nextWeighted(versions: VersionConfig[], usable: (v: VersionConfig) => boolean): VersionConfig | null {
  let total = 0;
  let best: VersionConfig | null = null;
  for (const v of versions) {
    if (v.weight <= 0 || !usable(v)) continue;
    v.credit += v.weight;
    total += v.weight;
    if (!best || v.credit > best.credit) best = v;
  }
  if (best) best.credit -= total;
  return best;
}

/** Least outstanding requests among the replicas not cooling down; ties go to the first. */
export function pickReplica(replicas: ReplicaConfig[], outstanding: (id: string) => number, excluded: (id: string) => boolean): ReplicaConfig | null {
  let best: ReplicaConfig | null = null;
  let bestLoad = Infinity;
  for (const r of replicas) {
    if (excluded(r.id)) continue;
    const load = outstanding(r.id);
    if (load < bestLoad) {
      best = r;
      bestLoad = load;
    }
  }
  return best;
}

export function usableReplicas(v: VersionConfig, tenant: Pick<TenantConfig, "kvkk" | "abroad" | "specialAbroad">, e: EndpointConfig): ReplicaConfig[] {
  return v.replicas.filter((r) => regionAllowed(r, tenant, e));
}
