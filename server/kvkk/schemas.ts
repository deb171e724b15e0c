import { z } from "zod";
import { exportFormat } from "../call-log/export/schemas.ts";
import { LOCALES } from "../shared/i18n/locales.ts";
import { isCountryCode } from "../shared/regions.ts";

const tenantId = z.string().trim().min(1).max(100).regex(/^[\w-]+$/, "a tenant id");
const requestId = z.string().trim().min(1).max(40).regex(/^\w+$/, "a request id");
export const destructionMethod = z.enum(["delete", "anonymize"]);
/** The language a stored or sent KVKK text is drafted in; the reader's own when not chosen. */
export const draftLocale = z.enum(LOCALES, { error: "en or tr" });

export const subjectFindInput = z
  .object({
    /** The `user` value the tenant sent in its calls (e-mail, customer number…); hashed, never stored. */
    user: z.string().min(1, "the user identifier").max(256).nullish(),
    /** A client IP the person called from (its blind index is searched; the IP itself is not stored). */
    ip: z.union([z.ipv4({ error: "an IPv4 or IPv6 address" }), z.ipv6({ error: "an IPv4 or IPv6 address" })]).nullish(),
    tenantId: tenantId.nullish(),
    /** The tenant's or the Authority's reference for the request. */
    reference: z.string().trim().max(200).nullish(),
  })
  .refine((s) => s.user || s.ip, { path: ["user"], message: "the user identifier or a client IP the person used" });
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
  /** Law 5651: hosting providers keep traffic logs 1 to 2 years; null when it does not apply. */
  trafficLogMinDays: z.number().int().min(365, "at least 365 days (Law 5651: 1 to 2 years)").max(730, "at most 730 days (Law 5651: 1 to 2 years)").nullish(),
  /** The ceiling on special-category tenants' retention (KVKK Art. 6); Law 5651's minimum still wins. */
  specialRetentionMaxDays: z.number().int().min(1).max(36500).optional(),
});
export type UpdateSettingsInput = z.infer<typeof updateSettingsInput>;

export const tenantRetentionInput = z.object({
  tenantId,
  /** null: follow the default. */
  days: z.number().int().min(1).max(36500).nullable(),
  method: destructionMethod.default("delete"),
});
export type TenantRetentionInput = z.infer<typeof tenantRetentionInput>;

/** A tenant's own retention: its tenant is the caller's. */
export const ownRetentionInput = tenantRetentionInput.omit({ tenantId: true });
export type OwnRetentionInput = z.infer<typeof ownRetentionInput>;

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
    /** A country (ISO 3166-1 alpha-2): "de" covers de-fra and eu-fra (server/shared/regions.ts). */
    destination: z
      .string()
      .trim()
      .regex(/^[a-z]{2}$/, "a country's ISO code, e.g. de for de-fra and eu-fra")
      .refine(isCountryCode, "a country, not a group of countries: eu-fra is de (Germany)")
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

export const holdPlaceInput = z.object({
  /** Both unset: the whole call log. */
  tenantId: tenantId.nullish(),
  /** A data subject's `user` identifier; hashed, never stored. */
  user: z.string().min(1, "the user identifier").max(256).nullish(),
  reason: z.string().trim().min(10, "why the data must be kept (case, authority's request…), at least 10 characters").max(500),
});
export type HoldPlaceInput = z.infer<typeof holdPlaceInput>;

export const holdReleaseInput = z.object({ id: tenantId });
export type HoldReleaseInput = z.infer<typeof holdReleaseInput>;

export const policyUpdateInput = z.object({
  store: z.enum(["call_log", "audit_ip", "exports", "subject_requests", "destruction_records", "transfer_register", "gateway_journal"], { error: "one of the stores the policy lists" }),
  category: z.string().trim().min(3, "what data this is").max(500),
  dataSubjects: z.string().trim().min(3, "whose data it is").max(300),
  purpose: z.string().trim().min(3, "why it is processed").max(500),
  legalBasis: z.string().trim().min(3, "the legal basis, with its article (KVKK Art. 5 or 6)").max(500),
  periodDays: z.number().int().min(1).max(36500).nullable(),
  periodReason: z.string().trim().min(10, "the reason for the period, at least 10 characters").max(500),
  responsible: z.string().trim().min(3, "who is responsible").max(200),
  expectedUpdatedAt: z.coerce.date({ error: "the time the entry was last changed, as read" }),
});
export type PolicyUpdateInput = z.infer<typeof policyUpdateInput>;

/** A data subject's application to the controller (KVKK Art. 11 and 13), as received. */
export const applicationOpenInput = z.object({
  /** The `user` value the tenant sent in its calls for this person; hashed, never stored. */
  user: z.string().min(1, "the user identifier the tenant sends for this person").max(256),
  /** The controller the application is to; a tenant user's own whatever is sent. Required: no search links one person across tenants. */
  tenantId: tenantId.nullish(),
  channel: z.enum(["written", "kep", "e_signature", "registered_email", "application_form"], { error: "how it arrived: written, kep, e_signature, registered_email or application_form" }),
  receivedAt: z.coerce.date({ error: "when it was received, a date" }).refine((d) => d.getTime() <= Date.now() + 60_000, "cannot be in the future"),
  identityCheck: z.string().trim().min(5, "how the applicant's identity was checked").max(500),
  right: z.enum(["learn_whether_processed", "request_information", "learn_purpose", "know_recipients", "rectification", "erasure", "notify_recipients", "object_automated_result", "compensation"], { error: "the right under KVKK Art. 11(1)" }),
  reference: z.string().trim().max(200).nullish(),
});
export type ApplicationOpenInput = z.infer<typeof applicationOpenInput>;

const applicationRef = { id: tenantId, expectedUpdatedAt: z.coerce.date({ error: "the time the application was last changed, as read" }) };
export const applicationAnswerInput = z.object({ ...applicationRef, answer: z.string().trim().min(10, "the answer sent to the applicant, at least 10 characters").max(5000) });
export type ApplicationAnswerInput = z.infer<typeof applicationAnswerInput>;
export const applicationRefuseInput = z.object({ ...applicationRef, reason: z.string().trim().min(10, "the reason for refusing, which the applicant is told (Art. 13(3))").max(5000) });
export type ApplicationRefuseInput = z.infer<typeof applicationRefuseInput>;
export const applicationEraseInput = z.object({ ...applicationRef, method: destructionMethod.default("delete"), answerLocale: draftLocale.optional() });
export type ApplicationEraseInput = z.infer<typeof applicationEraseInput>;

const text = (what: string, max = 2000) => z.string().trim().min(3, what).max(max);
/** The Board's breach notification form, as far as Kule keeps it. */
const breachForm = {
  title: text("a short title", 200),
  description: text("how the breach happened"),
  occurredFrom: z.coerce.date().nullish(),
  occurredTo: z.coerce.date().nullish(),
  dataCategories: text("which categories of personal data").nullish(),
  subjectCategories: text("which groups of data subjects").nullish(),
  consequences: text("the likely consequences").nullish(),
  measures: text("the measures taken or proposed").nullish(),
  contact: text("who the Board can contact").nullish(),
};
export const breachCreateInput = z.object({ ...breachForm, awareAt: z.coerce.date({ error: "when you became aware, a date" }).refine((d) => d.getTime() <= Date.now() + 60_000, "cannot be in the future") });
export type BreachCreateInput = z.infer<typeof breachCreateInput>;
export const breachUpdateInput = z.object({
  id: tenantId,
  expectedUpdatedAt: z.coerce.date({ error: "the time the incident was last changed, as read" }),
  ...breachForm,
  boardNotifiedAt: z.coerce.date().nullish(),
  controllersNotifiedAt: z.coerce.date().nullish(),
  subjectsNotifiedAt: z.coerce.date().nullish(),
  status: z.enum(["open", "board_notified", "closed"], { error: "open, board_notified or closed" }),
});
export type BreachUpdateInput = z.infer<typeof breachUpdateInput>;
export const breachIdInput = z.object({ id: tenantId });
export const breachGetInput = breachIdInput.extend({ noticeLocale: draftLocale.optional() });
export type BreachGetInput = z.infer<typeof breachGetInput>;

/** A version of the call log's at-rest keys, as named in its ring (v2, s1…). */
export const keyVersionInput = z.object({ version: z.string().trim().regex(/^[a-z][a-z0-9]{0,15}$/, "a key version like v2") });
export type KeyVersionInput = z.infer<typeof keyVersionInput>;

/** Client IPs re-encrypted under the current key in one call (the periodic job takes the rest). */
export const rekeyInput = z.object({ batch: z.number().int().min(1, "at least 1 row").max(10_000, "at most 10,000 rows a batch").default(1000) });
export type RekeyInput = z.infer<typeof rekeyInput>;

/** KVKK Art. 6's special categories a tenant's or endpoint's calls carry; null removes the marking. */
export const specialCategory = z.enum(["health", "biometric", "genetic", "other"]);
export const specialMarkInput = z
  .object({
    tenantId: tenantId.nullish(),
    endpointId: tenantId.nullish(),
    category: specialCategory.nullable(),
    /** Where the data subjects' explicit consent to transfer abroad is recorded (the controller's reference); tenants only. */
    abroadConsentRef: z.string().trim().min(3, "where the explicit consent is recorded, at least 3 characters").max(200).nullish(),
  })
  .refine((v) => !!v.tenantId !== !!v.endpointId, { message: "a tenant or an endpoint, one of them", path: ["tenantId"] })
  .refine((v) => !v.abroadConsentRef || !!v.tenantId, { message: "explicit consent is recorded for a tenant (the controller)", path: ["abroadConsentRef"] });
export type SpecialMarkInput = z.infer<typeof specialMarkInput>;
