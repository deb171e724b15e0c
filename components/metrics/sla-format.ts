import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

export type SlaData = inferRouterOutputs<AppRouter>["metrics"]["sla"];
export type EndpointSla = SlaData["endpoints"][number];
export type SliSla = EndpointSla["slis"][number];

export const COLOUR_TEXT = { green: "OK", amber: "At risk", red: "Breaching", "no-data": "No data" } as const;
export const COLOUR_CLASS = { green: "badge badge-ok", amber: "badge badge-warn", red: "badge badge-danger", "no-data": "badge" } as const;
export const SLI_NAME = { availability: "Availability", latency: "p99 latency", ttft: "TTFT" } as const;

/** 0.8 → "80% left"; an overspent budget says by how much. */
export function budgetText(left: number | null): string {
  if (left === null) return "—";
  if (left < 0) return `spent (${Math.round(-left * 100)}% over)`;
  return `${Math.round(left * 1000) / 10}% left`;
}

/** 14.4 → "14.4×"; null while there is no traffic. */
export function burnText(rate: number | null): string {
  if (rate === null) return "—";
  return `${rate >= 10 ? rate.toFixed(0) : rate.toFixed(rate >= 1 ? 1 : 2)}×`;
}

/** What an SLI promises, in words: "99.9% of requests OK", "99% within 1000 ms". */
export function objectiveText(s: Pick<SliSla, "kind" | "objective" | "thresholdMs">): string {
  const pct = `${Math.round(s.objective * 100_000) / 1000}%`;
  return s.kind === "availability" ? `${pct} without 5xx` : `${pct} within ${s.thresholdMs} ms`;
}

/** The endpoint's least-budget SLI: what the overview shows as "budget left". */
export function tightestBudget(e: Pick<EndpointSla, "slis">): number | null {
  const lefts = e.slis.map((s) => s.budgetLeft).filter((v): v is number => v !== null);
  return lefts.length ? Math.min(...lefts) : null;
}
