import { procedure, router, signedInProcedure } from "../trpc/init.ts";
import { createTenantInput, offboardTenantInput, tenantIdInput, updateTenantInput } from "../tenants/schemas.ts";
import { createTenant, getTenant, listPricePlans, listTenants, updateTenant } from "../tenants/tenants.ts";
import { offboardTenant } from "../tenants/offboard.ts";

export const tenantRouter = router({
  list: procedure("tenant:read").query(({ ctx }) => listTenants(ctx)),
  /** Any signed-in user may ask; the data layer answers NOT_FOUND for a tenant that is not theirs. */
  get: signedInProcedure.input(tenantIdInput).query(({ ctx, input }) => getTenant(ctx, input)),
  create: procedure("tenant:write").input(createTenantInput).mutation(({ ctx, input }) => createTenant(ctx, input)),
  update: procedure("tenant:write").input(updateTenantInput).mutation(({ ctx, input }) => updateTenant(ctx, input)),
  offboard: procedure("tenant:write").input(offboardTenantInput).mutation(({ ctx, input }) => offboardTenant(ctx, input)),
  pricePlans: procedure("priceplan:read").query(({ ctx }) => listPricePlans(ctx)),
});
