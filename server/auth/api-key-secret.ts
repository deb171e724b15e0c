import { createHash, randomBytes } from "node:crypto";

/** Visible part of a key, also its unique lookup handle in lists: `kule_` + 8 chars. */
export const API_KEY_PREFIX_LEN = 13;

/** What is stored of a key, and what the gateway looks a presented key up by: SHA-256, hex. */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The prefix and hash stored for a secret; the secret itself is never stored. */
export function apiKeyRecord(secret: string): { prefix: string; hash: string } {
  return { prefix: secret.slice(0, API_KEY_PREFIX_LEN), hash: hashApiKey(secret) };
}

/** A new API key secret: `kule_` + 40 base62-ish chars (~238 bits). Shown to the user once. */
export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const body = randomBytes(30).toString("base64url").replace(/[-_]/g, "x");
  const secret = `kule_${body}`;
  return { secret, ...apiKeyRecord(secret) };
}
