import type { useTranslations } from "use-intl";

/** Utilization as colour: pale when idle, through amber, to red when saturated; grey when there is no reading. */
export function heatColor(util: number | null): string {
  if (util === null) return "#e2e6ec";
  const u = Math.max(0, Math.min(100, util)) / 100;
  return `hsl(${Math.round(200 - 200 * u)}, ${Math.round(55 + 25 * u)}%, ${Math.round(88 - 40 * u)}%)`;
}

/** The words of the heat map (`cluster.heat`), from the caller's translator. */
export type HeatT = ReturnType<typeof useTranslations<"cluster.heat">>;

/** A node's GPUs in one line of words: the heat map's tooltip and its cells' accessible names. */
export function heatLabel(hostname: string, index: number, util: number | null, t: HeatT): string {
  return t("cell", { index: String(index), host: hostname, reading: util === null ? t("noData") : t("busy", { pct: String(Math.round(util)) }) });
}

/** The busiest GPU first: a node's mean and peak utilization over the GPUs that report one. */
export function nodeHeat(util: (number | null)[]): { mean: number | null; peak: number | null } {
  const known = util.filter((u): u is number => u !== null);
  if (!known.length) return { mean: null, peak: null };
  return { mean: known.reduce((s, u) => s + u, 0) / known.length, peak: Math.max(...known) };
}
