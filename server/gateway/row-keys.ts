import type { CallLogRow } from "./call-log.ts";
import type { GatewayCall } from "./call.ts";
import type { LogKeys } from "./key-check.ts";
import { encryptIp, hashSubjectWith, ipIndexWith, type KeyVersion } from "../call-log/keys/keyring.ts";

/** Special-category calls (the tenant's marking or the endpoint's) are kept under the special ring's keys. */
export const ringOfCall = (call: Pick<GatewayCall, "tenant" | "endpoint">) => (call.tenant?.special || call.endpoint?.special ? "special" : "standard");

/** Up to this many clients' IP index per key version: one HMAC per client, not per call. */
const INDEX_CACHE = 10_000;
const indexes = new WeakMap<KeyVersion, Map<string, string>>();

/** The IP's blind index under `k`, kept: a client calls many times, and the HMAC is the same each time. */
function ipIndexOf(k: KeyVersion, ip: string): string {
  let byIp = indexes.get(k);
  if (!byIp) indexes.set(k, (byIp = new Map()));
  let idx = byIp.get(ip);
  if (idx === undefined) {
    // Past the bound the map starts again, which a burst of new clients costs one HMAC each.
    if (byIp.size >= INDEX_CACHE) byIp.clear();
    byIp.set(ip, (idx = ipIndexWith(k, ip)));
  }
  return idx;
}

/**
 * The row as stored: the client IP encrypted and indexed, the `user` hashed, each under the key
 * version named on the row. Done before the row reaches the journal, so no file the gateway
 * writes (journal, spool) holds an IP in clear. The encryption is per row (its nonce is fresh and
 * the row's id is bound in); the index is per client.
 */
export function protectRow(row: CallLogRow, user: string | null, keys: LogKeys, ring: "standard" | "special"): CallLogRow {
  const k = keys[ring];
  const ip = row.clientIp;
  return {
    ...row,
    clientIp: null,
    clientIpEnc: ip ? encryptIp(k, ip, row.requestId) : null,
    clientIpHash: ip ? ipIndexOf(k, ip) : null,
    ipKeyVersion: ip ? k.version : null,
    userHash: user ? hashSubjectWith(k, user) : null,
    userHashKeyVersion: user ? k.version : null,
  };
}
