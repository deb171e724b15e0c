import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/root";

export type Plan = inferRouterOutputs<AppRouter>["planner"]["plan"];
export type PlanCandidate = Plan["candidates"][number];

/** A candidate's GPU memory as shares of the GPU, for the stacked bar: weights, KV cache, runtime overhead. */
export function memoryShares(c: Pick<PlanCandidate, "weightBytesPerGpu" | "kvBytesPerGpu" | "overheadBytesPerGpu">): { weights: number; kv: number; overhead: number } {
  const total = c.weightBytesPerGpu + c.kvBytesPerGpu + c.overheadBytesPerGpu;
  if (total <= 0) return { weights: 0, kv: 0, overhead: 0 };
  const pct = (b: number) => Math.round((b / total) * 1000) / 10;
  return { weights: pct(c.weightBytesPerGpu), kv: pct(c.kvBytesPerGpu), overhead: pct(c.overheadBytesPerGpu) };
}

/** The plan split for the page: candidates that meet the SLOs (ranked) and the refusals. */
export function planRows(plan: Pick<Plan, "candidates">): { ranked: PlanCandidate[]; refused: PlanCandidate[] } {
  return { ranked: plan.candidates.filter((c) => !c.refused), refused: plan.candidates.filter((c) => !!c.refused) };
}
