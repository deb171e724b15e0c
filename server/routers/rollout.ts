import { procedure, router } from "../trpc/init.ts";
import { blueGreenInput, deployInput, versionFitInput, setWeightsInput, endpointRefInput, planActionInput, promoteInput, removeVersionInput, rollbackInput, startPlanInput } from "../rollouts/schemas.ts";
import { blueGreenSwitch, deployVersion, versionFit, promoteVersion, removeVersion, rollbackEndpoint } from "../rollouts/actions.ts";
import { activeRollout, planAction, recentRollouts, startPlan } from "../rollouts/plans.ts";
import { endpointHistory } from "../rollouts/history.ts";
import { setWeights } from "../rollouts/weights.ts";
import { servedSplit } from "../rollouts/served-split.ts";

export const rolloutRouter = router({
  /** The operator's split: the slider, or one weight per version. */
  setWeights: procedure("endpoint:write").input(setWeightsInput).mutation(({ ctx, input }) => setWeights(ctx, input)),
  deploy: procedure("endpoint:write").input(deployInput).mutation(({ ctx, input }) => deployVersion(ctx, input)),
  fit: procedure("endpoint:write").input(versionFitInput).query(({ ctx, input }) => versionFit(ctx, input)),
  promote: procedure("endpoint:write").input(promoteInput).mutation(({ ctx, input }) => promoteVersion(ctx, input)),
  blueGreen: procedure("endpoint:write").input(blueGreenInput).mutation(({ ctx, input }) => blueGreenSwitch(ctx, input)),
  rollback: procedure("endpoint:write").input(rollbackInput).mutation(({ ctx, input }) => rollbackEndpoint(ctx, input)),
  removeVersion: procedure("endpoint:write").input(removeVersionInput).mutation(({ ctx, input }) => removeVersion(ctx, input)),
  startPlan: procedure("endpoint:write").input(startPlanInput).mutation(({ ctx, input }) => startPlan(ctx, input)),
  planAction: procedure("endpoint:write").input(planActionInput).mutation(({ ctx, input }) => planAction(ctx, input)),
  active: procedure("endpoint:read").input(endpointRefInput).query(({ ctx, input }) => activeRollout(ctx, input)),
  recent: procedure("endpoint:read").input(endpointRefInput).query(({ ctx, input }) => recentRollouts(ctx, input)),
  history: procedure("endpoint:read").input(endpointRefInput).query(({ ctx, input }) => endpointHistory(ctx, input)),
  servedSplit: procedure("endpoint:read").input(endpointRefInput).query(({ ctx, input }) => servedSplit(ctx, input)),
});
