import { createHash, randomBytes } from "node:crypto";

/** Visible part of a key, also its unique lookup handle in lists: `kule_` + 8 chars. */
const PREFIX_LEN = 13;

export function sha256Hex(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new API key secret: `kule_` + 40 base62-ish chars (~238 bits). Shown to the user once. */
export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const body = randomBytes(30).toString("base64url").replace(/[-_]/g, "x");
  const secret = `kule_${body}`;
  return { secret, prefix: secret.slice(0, PREFIX_LEN), hash: sha256Hex(secret) };
}
