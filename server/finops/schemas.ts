import { z } from "zod";
import { id, money } from "../schemas/common.ts";
import { exportFormat } from "../call-log/export/schemas.ts";
import { month } from "../usage/schemas.ts";

const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;

/** The most billing periods one FOCUS file covers (Kule's bound, not the spec's): two years. */
export const FOCUS_MAX_MONTHS = 24;

/**
 * GET /api/usage/focus?from=2026-11&to=2026-12&format=csv: the billing periods from `from` to `to`
 * (whole months, `to` defaults to `from`); staff may name a tenant or take all, a tenant user gets its own.
 */
export const focusExportInput = z
  .object({ tenantId: id.optional(), from: month, to: month.optional(), format: exportFormat.default("csv") })
  .transform((v) => ({ ...v, to: v.to ?? v.from }))
  .superRefine((v, ctx) => {
    const span = monthIndex(v.to) - monthIndex(v.from);
    if (span < 0) ctx.addIssue({ code: "custom", path: ["to"], message: "not before from" });
    else if (span >= FOCUS_MAX_MONTHS) ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${FOCUS_MAX_MONTHS} months after from` });
  });
export type FocusExportInput = z.output<typeof focusExportInput>;

/** The month's whole bill part by part: staff one tenant's shares or all, a tenant user its own. */
export const costBreakdownInput = z.object({ tenantId: id.optional(), month });
export type CostBreakdownInput = z.output<typeof costBreakdownInput>;

const from = { effectiveFrom: z.coerce.date() };

/**
 * A dated cost beside GPU time: energy in TRY per kWh with the facility's PUE, storage in TRY per
 * GB-month of model weights, software and operations in TRY a month with the rule that spreads them.
 */
export const setOverheadInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("energy"), amount: money, pue: z.number().min(1, "at least 1 (no facility uses less than its IT load)").max(3, "at most 3"), ...from }),
  z.object({ kind: z.literal("storage"), amount: money, ...from }),
  z.object({ kind: z.enum(["software", "operations"]), amount: money, spread: z.enum(["gpu_hours", "tokens", "even"]), ...from }),
]);
export type SetOverheadInput = z.output<typeof setOverheadInput>;
