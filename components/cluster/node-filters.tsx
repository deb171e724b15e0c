"use client";

import { useTranslations } from "use-intl";
import type { ClusterSummary, NodeListFilters } from "./types";
import styles from "./cluster.module.css";

const STATES: NonNullable<NodeListFilters["state"]>[] = ["ready", "not_ready", "down", "cordoned", "mig_pending", "mig_failed"];

/** The node list's search and filters; each one narrows the query the server runs. */
export function NodeFilters({ summary, filters, onChange }: { summary: ClusterSummary; filters: NodeListFilters; onChange: (f: NodeListFilters) => void }) {
  const set = (patch: Partial<NodeListFilters>) => onChange({ ...filters, ...patch });
  const pick = (v: string) => (v === "" ? undefined : v);
  const t = useTranslations("cluster.filters");
  return (
    <div className={styles.filters} role="search" aria-label={t("region")}>
      <input type="search" aria-label={t("search")} placeholder={t("searchPlaceholder")} value={filters.search ?? ""} onChange={(e) => set({ search: pick(e.target.value) })} />
      <select aria-label={t("pool")} value={filters.poolId ?? ""} onChange={(e) => set({ poolId: pick(e.target.value) })}>
        <option value="">{t("allPools")}</option>
        {summary.pools.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.nodes})
          </option>
        ))}
      </select>
      <select aria-label={t("state")} value={filters.state ?? ""} onChange={(e) => set({ state: pick(e.target.value) as NodeListFilters["state"] })}>
        <option value="">{t("anyState")}</option>
        {STATES.map((v) => (
          <option key={v} value={v}>
            {t(`states.${v}`)}
          </option>
        ))}
      </select>
      <select aria-label={t("gpuModel")} value={filters.gpuModel ?? ""} onChange={(e) => set({ gpuModel: pick(e.target.value) })}>
        <option value="">{t("anyGpu")}</option>
        {summary.facets.gpuModels.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
      <select aria-label={t("migProfile")} value={filters.migProfile ?? ""} onChange={(e) => set({ migProfile: pick(e.target.value) })}>
        <option value="">{t("anyMig")}</option>
        {summary.facets.migProfiles.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
      <select aria-label={t("regionLabel")} value={filters.region ?? ""} onChange={(e) => set({ region: pick(e.target.value) })}>
        <option value="">{t("anyRegion")}</option>
        {summary.facets.regions.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <label className={styles.check}>
        <input type="checkbox" checked={filters.faultsOnly ?? false} onChange={(e) => set({ faultsOnly: e.target.checked || undefined })} /> {t("faultsOnly")}
      </label>
    </div>
  );
}
