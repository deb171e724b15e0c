import { decryptIp, findVersion } from "./keyring.ts";
import { processRings, type Rings } from "./rings.ts";

export interface StoredIp {
  requestId: string;
  clientIp: string | null;
  clientIpEnc?: string | null;
  ipKeyVersion?: string | null;
}

/**
 * The row with its client IP readable: a row written before encryption holds it already, a later
 * one is decrypted with its own key version. A version no longer held (or a ciphertext that does
 * not verify) reads as no IP. The ciphertext never leaves the server.
 */
export function revealIp<T extends StoredIp>(row: T, rings: Rings = processRings()): Omit<T, "clientIpEnc" | "ipKeyVersion"> {
  const { clientIpEnc, ipKeyVersion, ...rest } = row;
  if (rest.clientIp || !clientIpEnc || !ipKeyVersion) return rest;
  const key = findVersion(rings.standard, ipKeyVersion) ?? findVersion(rings.special, ipKeyVersion);
  return { ...rest, clientIp: key ? decryptIp(key, clientIpEnc, row.requestId) : null };
}
