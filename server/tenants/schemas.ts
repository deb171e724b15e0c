import { z } from "zod";
import { displayName, id, slug } from "../schemas/common.ts";
import { TenantStatus } from "../db/generated/enums.ts";

export const createTenantInput = z.object({
  name: displayName,
  slug,
  kvkk: z.boolean().default(false),
  pricePlanId: id.nullish(),
});

export const updateTenantInput = z.object({
  id,
  name: displayName.optional(),
  kvkk: z.boolean().optional(),
  status: z.enum(TenantStatus).optional(),
  pricePlanId: id.nullish(),
});

export const tenantIdInput = z.object({ id });

export type CreateTenantInput = z.infer<typeof createTenantInput>;
export type UpdateTenantInput = z.infer<typeof updateTenantInput>;
export type TenantIdInput = z.infer<typeof tenantIdInput>;
