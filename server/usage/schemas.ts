import { z } from "zod";
import { id, locale, money, perMinuteLimit, priorityClass } from "../schemas/common.ts";

export const USAGE_DAYS = [1, 7, 30, 90] as const;

/** A tenant's view; staff name the tenant, a tenant user's own is implied (and the only one allowed). */
export const tenantUsageInput = z.object({
  tenantId: id.optional(),
  days: z
    .number()
    .int()
    .refine((d) => (USAGE_DAYS as readonly number[]).includes(d), "1, 7, 30 or 90 days")
    .default(30),
  by: z.enum(["endpoint", "key", "model", "class"]).default("endpoint"),
});

export const rangeInput = z.object({ days: tenantUsageInput.shape.days });

/** A calendar month, "2026-12": an invoice's, a FOCUS file's billing periods. */
export const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a month like 2026-12");

/** `locale`: the CSV header's language. */
export const invoiceInput = z.object({ tenantId: id.optional(), month, locale });

export const setBudgetInput = z.object({
  tenantId: id.optional(),
  /** null removes the budget. */
  monthlyBudget: money.nullable(),
  hardCap: z.boolean(),
});

export const addPlanPriceInput = z.object({
  planId: id,
  /** Only for one endpoint; omitted = every endpoint of the plan. */
  endpointId: id.nullish(),
  /** Prices take effect from a moment not in the past: what was charged stays as it was. */
  effectiveFrom: z.coerce.date(),
  inputPer1M: money,
  outputPer1M: money,
  perRequest: money,
});

export const setHardwareRateInput = z.object({
  kind: z.enum(["gpu", "cpu"]),
  key: z.string().trim().min(1, "a GPU model name or CPU node hostname").max(120),
  perHour: money,
  effectiveFrom: z.coerce.date(),
});

/**
 * A plan's gateway terms: default limits for its tenants without their own (null = unlimited), and
 * under overload its tenants' class and their weight when a class's tokens are shared out.
 */
export const setPlanLimitsInput = z.object({
  planId: id,
  rpmLimit: perMinuteLimit,
  tpmLimit: perMinuteLimit,
  priority: priorityClass.optional(),
  fairShareWeight: z.number().int("a whole number").min(1, "at least 1").max(1000, "at most 1000").optional(),
});

export type SetPlanLimitsInput = z.infer<typeof setPlanLimitsInput>;
export type TenantUsageInput = z.infer<typeof tenantUsageInput>;
export type InvoiceInput = z.infer<typeof invoiceInput>;
export type RangeInput = z.infer<typeof rangeInput>;
export type SetBudgetInput = z.infer<typeof setBudgetInput>;
export type AddPlanPriceInput = z.infer<typeof addPlanPriceInput>;
export type SetHardwareRateInput = z.infer<typeof setHardwareRateInput>;
