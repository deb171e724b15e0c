import { procedure, router } from "../trpc/init.ts";
import { addEndpointVersionInput, createEndpointInput, endpointIdInput, retireEndpointInput, setShadowInput, updateEndpointInput } from "../endpoints/schemas.ts";
import { setShadow } from "../endpoints/shadow.ts";
import { retireEndpoint, updateEndpoint } from "../endpoints/lifecycle.ts";
import { addEndpointVersion, createEndpoint, endpointCatalog, getEndpoint, listEndpoints } from "../endpoints/endpoints.ts";
import { updateSloInput } from "../endpoints/update-slo.types.ts";
import { updateEndpointSlo } from "../endpoints/update-slo.ts";
import { syncSloRules } from "../metrics/slo/rules-sync.ts";

export const endpointRouter = router({
  list: procedure("endpoint:read").query(({ ctx }) => listEndpoints(ctx)),
  catalog: procedure("catalog:read").query(({ ctx }) => endpointCatalog(ctx)),
  get: procedure("endpoint:read").input(endpointIdInput).query(({ ctx, input }) => getEndpoint(ctx, input)),
  create: procedure("endpoint:write")
    .input(createEndpointInput)
    .mutation(async ({ ctx, input }) => {
      const endpoint = await createEndpoint(ctx, input);
      // A new endpoint brings new SLOs: its burn-rate alerts exist from its first request.
      void syncSloRules(ctx).catch((e) => console.error("[slo-rules] sync after create failed", e));
      return endpoint;
    }),
  update: procedure("endpoint:write").input(updateEndpointInput).mutation(({ ctx, input }) => updateEndpoint(ctx, input)),
  retire: procedure("endpoint:write")
    .input(retireEndpointInput)
    .mutation(async ({ ctx, input }) => {
      const endpoint = await retireEndpoint(ctx, input);
      // A retired endpoint's SLO rules go with it.
      void syncSloRules(ctx).catch((e) => console.error("[slo-rules] sync after retire failed", e));
      return endpoint;
    }),
  updateSlo: procedure("endpoint:write").input(updateSloInput).mutation(({ ctx, input }) => updateEndpointSlo(ctx, input)),
  setShadow: procedure("endpoint:write").input(setShadowInput).mutation(({ ctx, input }) => setShadow(ctx, input)),
  addVersion: procedure("endpoint:write").input(addEndpointVersionInput).mutation(({ ctx, input }) => addEndpointVersion(ctx, input)),
});
