import { z } from "zod";
import { id } from "../schemas/common.ts";
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
