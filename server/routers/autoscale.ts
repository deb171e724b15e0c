import { procedure, router } from "../trpc/init.ts";
import { autoscaleHistoryInput, autoscaleRefInput, coldStartInput, setAutoscaleInput } from "../autoscale/schemas.ts";
import { decisionHistory, getPolicy, historyInLanguage, policyInLanguage, removePolicy, setColdStart, setPolicy } from "../autoscale/policy.ts";

export const autoscaleRouter = router({
  get: procedure("endpoint:read").input(autoscaleRefInput).query(async ({ ctx, input }) => policyInLanguage(ctx.locale, await getPolicy(ctx, input))),
  /** The decisions drawn on the endpoint page, with each version's policy. */
  history: procedure("endpoint:read").input(autoscaleHistoryInput).query(async ({ ctx, input }) => historyInLanguage(ctx.locale, await decisionHistory(ctx, input))),
  set: procedure("endpoint:write").input(setAutoscaleInput).mutation(({ ctx, input }) => setPolicy(ctx, input)),
  remove: procedure("endpoint:write").input(autoscaleRefInput).mutation(({ ctx, input }) => removePolicy(ctx, input)),
  setColdStart: procedure("endpoint:write").input(coldStartInput).mutation(({ ctx, input }) => setColdStart(ctx, input)),
});
