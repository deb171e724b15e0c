import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { env } from "../../env.ts";
import { secretFile } from "../../auth/secret-file.ts";

/** What a signed chain head states: this stream's chain, sealed through this hour, ends in this hash. */
export interface ChainHead {
  stream: string;
  /** The end of the last sealed hour, ISO 8601 UTC. */
  through: string;
  segments: number;
  hash: string;
}

export interface SealKey {
  privateKey: KeyObject;
  publicKeyPem: string;
  /** The first 16 hex digits of SHA-256 over the public key (SPKI DER): which key signed a head. */
  keyId: string;
}

let cached: SealKey | null = null;

/**
 * Kule's Ed25519 seal key. It lives outside the database it protects: a file under the data
 * directory (generated once, like the auth secret) or KULE_SEAL_KEY_FILE (e.g. a mounted secret).
 * Whoever can rewrite every row and every seal in the database still cannot sign a new head.
 */
export function sealKey(): SealKey {
  if (cached) return cached;
  const pem = secretFile(env.KULE_SEAL_KEY_FILE ?? "seal-signing-key.pem", () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString());
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return (cached = { privateKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: keyIdOf(publicKey) });
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16);
}

/** The bytes a head's signature covers: its fields in a fixed order, so anyone can rebuild them. */
export function headMessage(h: ChainHead): Buffer {
  return Buffer.from(`kule-seal-head/1\n${h.stream}\n${h.through}\n${h.segments}\n${h.hash}`, "utf8");
}

export function signHead(key: SealKey, h: ChainHead): string {
  return sign(null, headMessage(h), key.privateKey).toString("base64");
}

export function headSignatureValid(publicKeyPem: string, h: ChainHead, signature: string): boolean {
  try {
    return verify(null, headMessage(h), createPublicKey(publicKeyPem), Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
