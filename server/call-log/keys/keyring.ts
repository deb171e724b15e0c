import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Versioned keys of the call log's personal data at rest (KVKK Art. 12): each version's secret
 * keys the `user` hash (HMAC-SHA256), the client IP's AES-256-GCM encryption and the IP's search
 * index (HMAC-SHA256), the last two through HKDF so no key serves two purposes. A ring lists the
 * versions a process holds, the proposed current one first; which version is current for the
 * platform is recorded in PostgreSQL (SubjectKeyVersion), so every process agrees.
 */
export type RingName = "standard" | "special";

export interface KeyVersion {
  version: string;
  ring: RingName;
  /** The subject hash's key: the secret's text, as the single key before versions was used. */
  subject: Buffer;
  ipAes: Buffer;
  ipIndex: Buffer;
  /** HMAC of a fixed label under a key derived from the secret: proves who holds it, reveals nothing of it. */
  fingerprint: string;
}

export interface Keyring {
  ring: RingName;
  /** Newest first: the first is the one this process proposes as current. */
  versions: KeyVersion[];
}

const VERSION = /^[a-z][a-z0-9]{0,15}$/;
/** At least 32 bytes written in base64 or base64url (`openssl rand -base64 32`). */
const SECRET = /^[A-Za-z0-9+/_-]{43,}={0,2}$/;
const FINGERPRINT_LABEL = "kule call-log subject key fingerprint";

const derive = (secret: Buffer, info: string) => Buffer.from(hkdfSync("sha256", secret, "kule-call-log", info, 32));

/** `legacy`: the single key of before versions (KULE_SUBJECT_HASH_KEY), taken as it was, so its hashes still match. */
export function keyVersion(ring: RingName, version: string, secretText: string, opts: { legacy?: boolean } = {}): KeyVersion {
  if (!VERSION.test(version)) throw new Error(`key version "${version}": a lowercase letter, then letters or digits (at most 16), like v2`);
  if (!opts.legacy && !SECRET.test(secretText)) throw new Error(`key ${version}: at least 32 bytes in base64 (openssl rand -base64 32)`);
  const subject = Buffer.from(secretText, "utf8");
  return {
    version,
    ring,
    subject,
    ipAes: derive(subject, "client-ip/aes-256-gcm"),
    ipIndex: derive(subject, "client-ip/index"),
    fingerprint: createHmac("sha256", derive(subject, "fingerprint")).update(`${FINGERPRINT_LABEL} ${ring}:${version}`).digest("hex"),
  };
}

/** Parses "v2:<base64>,v1:<base64>" (newest first); a repeated version is refused, since two keys under one name would split searches. */
export function parseKeyring(ring: RingName, text: string): Keyring {
  const versions = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const cut = entry.indexOf(":");
      if (cut < 1) throw new Error(`a key entry is "version:base64-secret", got "${entry.slice(0, 8)}…"`);
      return keyVersion(ring, entry.slice(0, cut), entry.slice(cut + 1));
    });
  if (!versions.length) throw new Error("a key ring needs at least one version");
  const seen = new Set<string>();
  for (const v of versions) {
    if (seen.has(v.version)) throw new Error(`key version ${v.version} is listed twice`);
    seen.add(v.version);
  }
  return { ring, versions };
}

/** The ring with `next` put first (rotation): new rows use it once it is made current. */
export function rotate(ring: Keyring, next: KeyVersion): Keyring {
  if (ring.versions.some((v) => v.version === next.version)) throw new Error(`key version ${next.version} is in the ring already`);
  return { ring: ring.ring, versions: [next, ...ring.versions] };
}

export const findVersion = (ring: Keyring, version: string) => ring.versions.find((v) => v.version === version) ?? null;

/** Whether this process's copy of `version` is the one whose fingerprint PostgreSQL recorded. */
export function holdsFingerprint(ring: Keyring, version: string, fingerprint: string): boolean {
  const mine = findVersion(ring, version)?.fingerprint;
  return !!mine && mine.length === fingerprint.length && timingSafeEqual(Buffer.from(mine), Buffer.from(fingerprint));
}

export const hashSubjectWith = (k: KeyVersion, user: string) => createHmac("sha256", k.subject).update(user, "utf8").digest("hex");

/** IPs are compared in one spelling: lowercase, without IPv4-mapped IPv6's prefix. */
export const canonicalIp = (ip: string) => ip.trim().toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");

export const ipIndexWith = (k: KeyVersion, ip: string) => createHmac("sha256", k.ipIndex).update(canonicalIp(ip), "utf8").digest("hex");

/** Nonces drawn from the CSPRNG 1,024 at a time: one randomBytes call a call cost ~2 µs, most of it the call itself. */
let nonces = Buffer.alloc(0);
function nonce(): Buffer {
  if (nonces.length < 12) nonces = randomBytes(12 * 1024);
  const n = nonces.subarray(0, 12);
  nonces = nonces.subarray(12);
  return n;
}

/**
 * AES-256-GCM under a fresh random 96-bit nonce; the row's request id is associated data, so a
 * ciphertext moved to another row fails to decrypt. Stored as base64 of nonce ‖ tag ‖ ciphertext.
 */
export function encryptIp(k: KeyVersion, ip: string, requestId: string): string {
  const iv = nonce();
  const c = createCipheriv("aes-256-gcm", k.ipAes, iv);
  c.setAAD(Buffer.from(requestId, "utf8"));
  const body = Buffer.concat([c.update(canonicalIp(ip), "utf8"), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString("base64");
}

/** The IP, or null when the ciphertext does not verify (altered, moved, or another key's). */
export function decryptIp(k: KeyVersion, stored: string, requestId: string): string | null {
  try {
    const raw = Buffer.from(stored, "base64");
    const d = createDecipheriv("aes-256-gcm", k.ipAes, raw.subarray(0, 12));
    d.setAAD(Buffer.from(requestId, "utf8"));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8");
  } catch {
    return null;
  }
}
