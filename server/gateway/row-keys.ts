import type { CallLogRow } from "./call-log.ts";
import type { GatewayCall } from "./call.ts";
import type { LogKeys } from "./key-check.ts";
import { encryptIp, hashSubjectWith, ipIndexWith } from "../call-log/keys/keyring.ts";

/** Special-category calls (the tenant's marking or the endpoint's) are kept under the special ring's keys. */
export const ringOfCall = (call: Pick<GatewayCall, "tenant" | "endpoint">) => (call.tenant?.special || call.endpoint?.special ? "special" : "standard");

/**
 * The row as stored: the client IP encrypted and indexed, the `user` hashed, each under the key
 * version named on the row. Done before the row reaches the journal, so no file the gateway
 * writes (journal, spool) holds an IP in clear. About 8 µs of crypto a call (scripts/bench-row-keys.ts).
 */
export function protectRow(row: CallLogRow, user: string | null, keys: LogKeys, ring: "standard" | "special"): CallLogRow {
  const k = keys[ring];
  const ip = row.clientIp;
  return {
    ...row,
    clientIp: null,
    clientIpEnc: ip ? encryptIp(k, ip, row.requestId) : null,
    clientIpHash: ip ? ipIndexWith(k, ip) : null,
    ipKeyVersion: ip ? k.version : null,
    userHash: user ? hashSubjectWith(k, user) : null,
    userHashKeyVersion: user ? k.version : null,
  };
}
