import { createHmac, randomBytes } from "node:crypto";
import { env } from "../env.ts";
import { secretFile } from "../auth/secret-file.ts";

let cached: string | null = null;

/**
 * The key of the data-subject hash: KULE_SUBJECT_HASH_KEY, else one generated once under the data
 * directory (as AUTH_SECRET is), so the gateway and the app on one machine agree without setup.
 * Keyed, because a plain hash of an e-mail address is reversed by hashing a list of addresses.
 */
export function subjectHashKey(): string {
  if (cached) return cached;
  if (env.KULE_SUBJECT_HASH_KEY) return (cached = env.KULE_SUBJECT_HASH_KEY);
  return (cached = secretFile("subject-hash-key", () => randomBytes(32).toString("base64url")));
}

/** HMAC-SHA256 (hex) of the `user` identifier a tenant passes in its calls; the identifier is never stored. */
export function hashSubject(user: string, key = subjectHashKey()): string {
  return createHmac("sha256", key).update(user, "utf8").digest("hex");
}
