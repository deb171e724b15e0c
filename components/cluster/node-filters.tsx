"use client";

import type { ClusterSummary, NodeListFilters } from "./types";
import styles from "./cluster.module.css";

const STATES: [NonNullable<NodeListFilters["state"]>, string][] = [
  ["ready", "Ready"],
  ["not_ready", "Not ready"],
  ["down", "Down"],
  ["cordoned", "Cordoned"],
  ["mig_pending", "MIG change pending"],
  ["mig_failed", "MIG change failed"],
];

/** The node list's search and filters; each one narrows the query the server runs. */
export function NodeFilters({ summary, filters, onChange }: { summary: ClusterSummary; filters: NodeListFilters; onChange: (f: NodeListFilters) => void }) {
  const set = (patch: Partial<NodeListFilters>) => onChange({ ...filters, ...patch });
  const pick = (v: string) => (v === "" ? undefined : v);
  return (
    <div className={styles.filters} role="search" aria-label="Find nodes">
      <input type="search" aria-label="Search nodes" placeholder="Search nodes by name" value={filters.search ?? ""} onChange={(e) => set({ search: pick(e.target.value) })} />
      <select aria-label="Pool" value={filters.poolId ?? ""} onChange={(e) => set({ poolId: pick(e.target.value) })}>
        <option value="">All pools</option>
        {summary.pools.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.nodes})
          </option>
        ))}
      </select>
      <select aria-label="State" value={filters.state ?? ""} onChange={(e) => set({ state: pick(e.target.value) as NodeListFilters["state"] })}>
        <option value="">Any state</option>
        {STATES.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
      <select aria-label="GPU model" value={filters.gpuModel ?? ""} onChange={(e) => set({ gpuModel: pick(e.target.value) })}>
        <option value="">Any GPU</option>
        {summary.facets.gpuModels.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
      <select aria-label="MIG profile" value={filters.migProfile ?? ""} onChange={(e) => set({ migProfile: pick(e.target.value) })}>
        <option value="">Any MIG profile</option>
        {summary.facets.migProfiles.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
      <select aria-label="Region" value={filters.region ?? ""} onChange={(e) => set({ region: pick(e.target.value) })}>
        <option value="">Any region</option>
        {summary.facets.regions.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <label className={styles.check}>
        <input type="checkbox" checked={filters.faultsOnly ?? false} onChange={(e) => set({ faultsOnly: e.target.checked || undefined })} /> Only with faults
      </label>
    </div>
  );
}
