import { randomBytes } from "node:crypto";
import { env } from "../../env.ts";
import { secretFile } from "../../auth/secret-file.ts";
import { hashSubjectWith, ipIndexWith, keyVersion, parseKeyring, type Keyring, type RingName } from "./keyring.ts";

const generated = () => randomBytes(32).toString("base64url");

/**
 * The standard ring: KULE_SUBJECT_HASH_KEYS, else one version `v1` holding the key of before
 * versions (KULE_SUBJECT_HASH_KEY, else the one generated once under the data directory), so
 * rows hashed before keys had versions are still found. No key is written in the code: an
 * embedded or demo install generates its own.
 */
function loadStandard(): Keyring {
  if (env.KULE_SUBJECT_HASH_KEYS) return parseKeyring("standard", env.KULE_SUBJECT_HASH_KEYS);
  const legacy = env.KULE_SUBJECT_HASH_KEY ?? secretFile("subject-hash-key", generated);
  return { ring: "standard", versions: [keyVersion("standard", "v1", legacy, { legacy: true })] };
}

/** Special categories of personal data (KVKK Art. 6) are kept under keys of their own. */
function loadSpecial(): Keyring {
  if (env.KULE_SPECIAL_SUBJECT_HASH_KEYS) return parseKeyring("special", env.KULE_SPECIAL_SUBJECT_HASH_KEYS);
  return { ring: "special", versions: [keyVersion("special", "s1", secretFile("special-subject-hash-key", generated))] };
}

export interface Rings {
  standard: Keyring;
  special: Keyring;
}

/** One version name means one key: the rings may not share a name, or a row's version would not say which key. */
export function checkRings(r: Rings): Rings {
  const standard = new Set(r.standard.versions.map((v) => v.version));
  const both = r.special.versions.find((v) => standard.has(v.version));
  if (both) throw new Error(`key version ${both.version} is in both the standard and the special-category ring`);
  return r;
}

let cached: { text: string; rings: Rings } | null = null;
/** This process's rings, parsed again only when their configuration changed (a test, a reloaded environment). */
export function processRings(): Rings {
  const text = `${env.KULE_SUBJECT_HASH_KEYS ?? ""}\n${env.KULE_SPECIAL_SUBJECT_HASH_KEYS ?? ""}\n${env.KULE_SUBJECT_HASH_KEY ?? ""}`;
  if (cached?.text !== text) cached = { text, rings: checkRings({ standard: loadStandard(), special: loadSpecial() }) };
  return cached.rings;
}

export const ringOf = (r: Rings, name: RingName) => r[name];
export const allVersions = (r: Rings) => [...r.standard.versions, ...r.special.versions];

/** A `user` hashed under every version held: a row is the person's whichever key it was written under. */
export const subjectHashesOf = (user: string, r = processRings()) => allVersions(r).map((k) => hashSubjectWith(k, user));
export const ipIndexesOf = (ip: string, r = processRings()) => allVersions(r).map((k) => ipIndexWith(k, ip));
