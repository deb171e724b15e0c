import type { Messages } from "../shared/i18n/messages.ts";

/**
 * The server names charts and says why one is empty by keys of the messages (metrics.chart.*,
 * metrics.note, metrics.why): the page words them in its language, so a title or a note has one
 * owner, and a chart id without a title is a type error here rather than English on a Turkish page.
 */
type M = Messages["metrics"];
export type EndpointChartId = keyof M["chart"]["endpoint"];
export type TenantChartId = keyof M["chart"]["tenant"];
export type GpuChartId = keyof M["chart"]["gpu"];

type Said<K> = { key: K; values?: Record<string, string | number> };
/** Why a chart is empty or partial, when the reason is known (not "no traffic yet"). */
export type ChartNote = Said<keyof M["note"]>;
/** Why there are no metrics at all: Prometheus off, away or refusing. */
export type MetricsOffWhy = Said<keyof M["why"]>;
