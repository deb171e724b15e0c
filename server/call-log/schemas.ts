import { z } from "zod";

const id = z.string().trim().min(1).max(100).regex(/^[\w.:-]+$/, "letters, digits, - _ . : only");

/** The explorer's filters, also what an export takes. Every field is optional but the time range is advised. */
export const callLogFilter = z.object({
  tenantId: id.nullish(),
  apiKeyId: id.nullish(),
  endpointId: id.nullish(),
  /** The EndpointVersion that served the call. */
  versionId: id.nullish(),
  status: z.coerce.number().int().min(100).max(599).nullish(),
  clientIp: z.string().trim().max(45).regex(/^[0-9a-fA-F.:]+$/, "an IPv4 or IPv6 address").nullish(),
  requestId: id.nullish(),
  from: z.coerce.date().nullish(),
  to: z.coerce.date().nullish(),
  /** A data subject's keyed hash (server/call-log/subject-hash.ts): set by data-subject requests. */
  subjectHash: z.string().regex(/^[0-9a-f]{64}$/, "a subject hash").nullish(),
  /** The same person's hash under each key version held (server/call-log/keys): rows of every version match. */
  subjectHashes: z.array(z.string().regex(/^[0-9a-f]{64}$/, "a subject hash")).max(32).nullish(),
  /** The same person found by client IP: its blind index under each key version. A row is the person's by either. */
  subjectIpIndexes: z.array(z.string().regex(/^[0-9a-f]{64}$/, "an IP index")).max(32).nullish(),
});
export type CallLogFilter = z.infer<typeof callLogFilter>;

/** Why an auditor needs to see client IPs unmasked; recorded in the audit log with the read. */
const unmaskReason = z.string().trim().min(10, "say why you need the IP addresses, in at least 10 characters").max(500, "at most 500 characters").optional();

export const listCallsInput = callLogFilter.extend({
  unmaskReason,
  /** Keyset pagination: "<startedAt ms>_<requestId>" of the last row of the previous page. */
  cursor: z.string().regex(/^\d+_[\w.:-]+$/, "a cursor from the previous page").nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});
export type ListCallsInput = z.infer<typeof listCallsInput>;

export const getCallInput = z.object({ requestId: id, unmaskReason });
export type GetCallInput = z.infer<typeof getCallInput>;
