import { procedure, router } from "../trpc/init.ts";
import { planInput } from "../planner/schemas.ts";
import { planCapacity } from "../planner/planner.ts";

export const plannerRouter = router({
  /** Candidates for a model and a forecast on the fleet's GPU kinds, ranked, the best checked against today's free GPUs. */
  plan: procedure("capacity:plan").input(planInput).query(({ ctx, input }) => planCapacity(ctx, input)),
});
