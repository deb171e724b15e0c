import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptIp, encryptIp, hashSubjectWith, holdsFingerprint, ipIndexWith, keyVersion, parseKeyring, rotate } from "./keyring.ts";
import { checkRings } from "./rings.ts";

const secret = () => randomBytes(32).toString("base64");

describe("key rings", () => {
  it("parses versions newest first and refuses short secrets, bad names and repeats", () => {
    const [a, b] = [secret(), secret()];
    const ring = parseKeyring("standard", `v2:${a}, v1:${b}`);
    expect(ring.versions.map((v) => v.version)).toEqual(["v2", "v1"]);
    expect(() => parseKeyring("standard", "v1:tooshort")).toThrow(/32 bytes/);
    expect(() => parseKeyring("standard", `V1:${a}`)).toThrow(/lowercase/);
    expect(() => parseKeyring("standard", `v1:${a},v1:${b}`)).toThrow(/twice/);
    expect(() => parseKeyring("standard", " , ")).toThrow(/at least one/);
  });

  it("rotates by putting the new version first, never a name already held", () => {
    const ring = parseKeyring("standard", `v1:${secret()}`);
    const next = rotate(ring, keyVersion("standard", "v2", secret()));
    expect(next.versions.map((v) => v.version)).toEqual(["v2", "v1"]);
    expect(() => rotate(next, keyVersion("standard", "v1", secret()))).toThrow(/already/);
  });

  it("fingerprints identify the key without being it, and differ by key, version and ring", () => {
    const s = secret();
    const k = keyVersion("standard", "v1", s);
    expect(k.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(k.fingerprint).toBe(keyVersion("standard", "v1", s).fingerprint);
    expect(k.fingerprint).not.toContain(Buffer.from(s).toString("hex").slice(0, 16));
    expect(keyVersion("standard", "v1", secret()).fingerprint).not.toBe(k.fingerprint);
    expect(keyVersion("standard", "v9", s).fingerprint).not.toBe(k.fingerprint);
    expect(keyVersion("special", "v1", s).fingerprint).not.toBe(k.fingerprint);
    const ring = { ring: "standard" as const, versions: [k] };
    expect(holdsFingerprint(ring, "v1", k.fingerprint)).toBe(true);
    expect(holdsFingerprint(ring, "v1", keyVersion("standard", "v1", secret()).fingerprint)).toBe(false);
    expect(holdsFingerprint(ring, "v2", k.fingerprint)).toBe(false);
  });

  it("keeps a legacy single key's subject hashes: v1 of the legacy key hashes as the key did before versions", () => {
    const legacy = "a-legacy-key-of-16+chars";
    const k = keyVersion("standard", "v1", legacy, { legacy: true });
    // what server/call-log/subject-hash.ts computed: HMAC-SHA256 keyed by the key's text
    expect(hashSubjectWith(k, "alice@example.com")).toBe(createHmac("sha256", legacy).update("alice@example.com").digest("hex"));
  });

  it("encrypts an IP under a fresh nonce, bound to its row; another key or row does not decrypt it", () => {
    const k = keyVersion("standard", "v1", secret());
    const a = encryptIp(k, "10.1.2.3", "req-1");
    expect(a).not.toContain("10.1.2.3");
    expect(encryptIp(k, "10.1.2.3", "req-1")).not.toBe(a);
    expect(decryptIp(k, a, "req-1")).toBe("10.1.2.3");
    expect(decryptIp(k, a, "req-2")).toBeNull();
    expect(decryptIp(keyVersion("standard", "v1", secret()), a, "req-1")).toBeNull();
  });

  it("indexes an IP the same in either spelling, differently under each version", () => {
    const [k1, k2] = [keyVersion("standard", "v1", secret()), keyVersion("standard", "v2", secret())];
    expect(ipIndexWith(k1, "::ffff:10.0.0.1")).toBe(ipIndexWith(k1, "10.0.0.1"));
    expect(ipIndexWith(k1, "2001:DB8::1")).toBe(ipIndexWith(k1, "2001:db8::1"));
    expect(ipIndexWith(k2, "10.0.0.1")).not.toBe(ipIndexWith(k1, "10.0.0.1"));
  });

  it("refuses one version name in both rings", () => {
    const std = parseKeyring("standard", `v1:${secret()}`);
    expect(() => checkRings({ standard: std, special: parseKeyring("special", `v1:${secret()}`) })).toThrow(/both/);
    expect(checkRings({ standard: std, special: parseKeyring("special", `s1:${secret()}`) }).special.versions[0]!.version).toBe("s1");
  });
});
