import { procedure, router } from "../trpc/init.ts";
import { addEndpointVersionInput, createEndpointInput, endpointIdInput, setWeightsInput } from "../endpoints/schemas.ts";
import { addEndpointVersion, createEndpoint, endpointCatalog, getEndpoint, listEndpoints, setEndpointWeights } from "../endpoints/endpoints.ts";

export const endpointRouter = router({
  list: procedure("endpoint:read").query(({ ctx }) => listEndpoints(ctx)),
  catalog: procedure("catalog:read").query(({ ctx }) => endpointCatalog(ctx)),
  get: procedure("endpoint:read").input(endpointIdInput).query(({ ctx, input }) => getEndpoint({ db: ctx.db, id: input.id })),
  create: procedure("endpoint:write").input(createEndpointInput).mutation(({ ctx, input }) => createEndpoint(ctx, input)),
  addVersion: procedure("endpoint:write").input(addEndpointVersionInput).mutation(({ ctx, input }) => addEndpointVersion(ctx, input)),
  setWeights: procedure("endpoint:write").input(setWeightsInput).mutation(({ ctx, input }) => setEndpointWeights(ctx, input)),
});
