/**
 * What each sealed stream hashes: one COPY text line per row, in `order` (time, then id compared
 * byte-wise with COLLATE "C", so a restore under another locale sorts alike). COPY's text format
 * is canonical: fixed escaping, \N for null, jsonb printed normalised, timestamps in ISO form under
 * the session settings set before it.
 */
export const STREAMS = {
  call_log: {
    table: `"CallLog"`,
    time: `"startedAt"`,
    columns: `"startedAt", "requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "replica", "region", "clientIp", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens", "userHash"`,
    order: `"startedAt", "requestId" COLLATE "C"`,
  },
  audit_event: {
    table: `"AuditEvent"`,
    time: `"at"`,
    columns: `"at", "id", "actorId", "actorEmail", "action", "targetType", "targetId", "before", "after", "ip"`,
    order: `"at", "id"`,
  },
} as const;

export type StreamName = keyof typeof STREAMS;
export const STREAM_NAMES = Object.keys(STREAMS) as StreamName[];

/** Set on the connection before any COPY whose lines are hashed, so every run prints alike. */
export const CANONICAL_SESSION = `SET DateStyle TO ISO, YMD; SET TimeZone TO 'UTC'; SET extra_float_digits TO 1`;
