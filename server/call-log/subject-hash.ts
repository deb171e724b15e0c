import { hashSubjectWith } from "./keys/keyring.ts";
import { processRings, subjectHashesOf } from "./keys/rings.ts";

/**
 * HMAC-SHA256 (hex) of the `user` identifier a tenant passes in its calls, under this process's
 * newest standard key (server/call-log/keys); the identifier is never stored. Looking a person up
 * uses `subjectHashes`: every version held, since older rows keep the key they were written under.
 */
export function hashSubject(user: string): string {
  return hashSubjectWith(processRings().standard.versions[0]!, user);
}

export const subjectHashes = (user: string) => subjectHashesOf(user);
