import { procedure, router } from "../trpc/init.ts";
import { liveCheckInput, planInput } from "../planner/schemas.ts";
import { planCapacity } from "../planner/planner.ts";
import { predictedVsMeasured } from "../planner/live-check.ts";

export const plannerRouter = router({
  /** Candidates for a model and a forecast on the fleet's GPU kinds, ranked, the best checked against today's free GPUs. */
  plan: procedure("capacity:plan").input(planInput).query(({ ctx, input }) => planCapacity(ctx, input)),
  /** The planner's prediction for an endpoint's live load beside what Prometheus measured. */
  live: procedure("capacity:plan").input(liveCheckInput).query(({ ctx, input }) => predictedVsMeasured(ctx, input)),
});
