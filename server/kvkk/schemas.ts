import { z } from "zod";
import { exportFormat } from "../call-log/export/schemas.ts";

const tenantId = z.string().trim().min(1).max(100).regex(/^[\w-]+$/, "a tenant id");
const requestId = z.string().trim().min(1).max(40).regex(/^\w+$/, "a request id");
export const destructionMethod = z.enum(["delete", "anonymize"]);

export const subjectFindInput = z.object({
  /** The `user` value the tenant sent in its calls (e-mail, customer number…); hashed, never stored. */
  user: z.string().min(1, "the user identifier").max(256),
  tenantId: tenantId.nullish(),
  /** The tenant's or the Authority's reference for the request. */
  reference: z.string().trim().max(200).nullish(),
});
export type SubjectFindInput = z.infer<typeof subjectFindInput>;

export const subjectExportInput = z.object({ requestId, format: exportFormat });
export type SubjectExportInput = z.infer<typeof subjectExportInput>;

export const subjectDestroyInput = z.object({ requestId, method: destructionMethod.default("delete") });
export type SubjectDestroyInput = z.infer<typeof subjectDestroyInput>;

export const updateSettingsInput = z.object({
  defaultRetentionDays: z.number().int().min(1).max(36500),
  /** The 2017 regulation: destruction at intervals of at most 6 months. */
  destructionIntervalDays: z.number().int().min(1).max(182, "at most 182 days (6 months, KVKK destruction regulation)"),
  sealGraceMinutes: z.number().int().min(5).max(10080),
});
export type UpdateSettingsInput = z.infer<typeof updateSettingsInput>;

export const tenantRetentionInput = z.object({
  tenantId,
  /** null: follow the default. */
  days: z.number().int().min(1).max(36500).nullable(),
  method: destructionMethod.default("delete"),
});
export type TenantRetentionInput = z.infer<typeof tenantRetentionInput>;

export const residencyInput = z.object({
  from: z.coerce.date(),
  to: z.coerce.date(),
  tenantId: tenantId.nullish(),
});
export type ResidencyInput = z.infer<typeof residencyInput>;

export const listDestructionsInput = z.object({ tenantId: tenantId.nullish(), limit: z.number().int().min(1).max(200).default(50) });
export type ListDestructionsInput = z.infer<typeof listDestructionsInput>;
