/** Utilization as colour: pale when idle, through amber, to red when saturated; grey when there is no reading. */
export function heatColor(util: number | null): string {
  if (util === null) return "#e2e6ec";
  const u = Math.max(0, Math.min(100, util)) / 100;
  return `hsl(${Math.round(200 - 200 * u)}, ${Math.round(55 + 25 * u)}%, ${Math.round(88 - 40 * u)}%)`;
}

/** A node's GPUs in one line of words: the heat map's tooltip and its cells' accessible names. */
export function heatLabel(hostname: string, index: number, util: number | null): string {
  return `GPU ${index} of ${hostname}: ${util === null ? "no data" : `${Math.round(util)}% busy`}`;
}

/** The busiest GPU first: a node's mean and peak utilization over the GPUs that report one. */
export function nodeHeat(util: (number | null)[]): { mean: number | null; peak: number | null } {
  const known = util.filter((u): u is number => u !== null);
  if (!known.length) return { mean: null, peak: null };
  return { mean: known.reduce((s, u) => s + u, 0) / known.length, peak: Math.max(...known) };
}
