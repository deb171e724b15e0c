import { z } from "zod";
import { displayName, id, money, perMinuteLimit, slug } from "../schemas/common.ts";

export const createTenantInput = z.object({
  name: displayName,
  slug,
  kvkk: z.boolean().default(false),
  pricePlanId: id.nullish(),
  rpmLimit: perMinuteLimit.optional(),
  tpmLimit: perMinuteLimit.optional(),
  creditLimit: money.nullish(),
});

/** An admin's edit; `expectedUpdatedAt` is the tenant's updatedAt as the editor loaded it (a later edit is a conflict). */
export const updateTenantInput = z.object({
  id,
  expectedUpdatedAt: z.coerce.date(),
  name: displayName.optional(),
  kvkk: z.boolean().optional(),
  /** Offboarding is its own step (offboardTenant): it revokes keys and cannot be undone here. */
  status: z.enum(["active", "suspended"]).optional(),
  pricePlanId: id.nullish(),
  /** The tenant's gateway limits; null falls back to its price plan's. */
  rpmLimit: perMinuteLimit.optional(),
  tpmLimit: perMinuteLimit.optional(),
  /** The platform's credit limit for a month (a tenant cannot change it); null = none. */
  creditLimit: money.nullable().optional(),
  /** Its cached prompt prefixes never reused for another tenant (vLLM cache_salt); null = on for special categories. */
  privatePrefixCache: z.boolean().nullable().optional(),
  /** Its VERBIS registration number (KVKK Art. 16); null: exempt or not given. */
  verbisNumber: z.string().trim().regex(/^[0-9A-Za-z-]{4,40}$/, "letters, digits and dashes, 4 to 40 of them").nullable().optional(),
  /** The processing agreement (KVKK Art. 12(2)): its reference and when it was signed. */
  processingAgreementRef: z.string().trim().min(2, "at least 2 characters").max(200, "at most 200 characters").nullable().optional(),
  processingAgreementSignedAt: z.coerce.date().refine((d) => d.getTime() <= Date.now() + 86_400_000, "cannot be in the future").nullable().optional(),
});

export const tenantIdInput = z.object({ id });

/** Offboarding names the tenant's slug again, so a slip of the mouse cannot do it. */
export const offboardTenantInput = z.object({ id, confirmSlug: slug, expectedUpdatedAt: z.coerce.date() });

export type CreateTenantInput = z.infer<typeof createTenantInput>;
export type UpdateTenantInput = z.infer<typeof updateTenantInput>;
export type TenantIdInput = z.infer<typeof tenantIdInput>;
export type OffboardTenantInput = z.infer<typeof offboardTenantInput>;
