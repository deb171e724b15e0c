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

const expectedUpdatedAt = z.coerce.date({ error: "the time the row was last changed, as read" });
const notFuture = (what: string) => z.coerce.date({ error: `${what}, a date` }).refine((d) => d.getTime() <= Date.now() + 60_000, `${what} cannot be in the future`);

/** KVKK Art. 9 (Law 7499): what lets one tenant's calls be served in one country outside Turkey. */
export const safeguardCreateInput = z
  .object({
    tenantId,
    /** A country as regions begin: "de" covers de-fra. */
    destination: z
      .string()
      .trim()
      .regex(/^[a-z]{2}$/, "a country as region labels begin, e.g. de for de-fra")
      .refine((d) => d !== "tr", "Turkey is not abroad: no safeguard is needed"),
    importer: z.string().trim().min(3, "the importer's name and address abroad").max(500),
    mechanism: z.enum(["adequacy", "standard_contract", "bcr"], { error: "adequacy, standard_contract or bcr (KVKK Art. 9)" }),
    reference: z.string().trim().min(1, "the decision's, contract's or rules' reference").max(200),
    signedAt: notFuture("the signing, approval or decision date"),
    notifiedAt: notFuture("the date it was notified to the Authority").nullish(),
  })
  .refine((s) => !s.notifiedAt || s.notifiedAt >= s.signedAt, { path: ["notifiedAt"], message: "cannot be before it was signed" });
export type SafeguardCreateInput = z.infer<typeof safeguardCreateInput>;

export const safeguardNotifyInput = z.object({ id: tenantId, notifiedAt: notFuture("the date it was notified to the Authority"), expectedUpdatedAt });
export type SafeguardNotifyInput = z.infer<typeof safeguardNotifyInput>;

export const safeguardRevokeInput = z.object({ id: tenantId, expectedUpdatedAt });
export type SafeguardRevokeInput = z.infer<typeof safeguardRevokeInput>;

/** An admin's record of how an external server's region label was checked. */
export const verifyRegionInput = z.object({
  replicaId: tenantId,
  evidence: z.string().trim().min(10, "how the location was checked (contract, data-centre address…), at least 10 characters").max(500),
});
export type VerifyRegionInput = z.infer<typeof verifyRegionInput>;
