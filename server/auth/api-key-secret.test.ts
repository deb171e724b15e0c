import { describe, expect, it } from "vitest";
import { newApiKeySecret, hashApiKey } from "./api-key-secret.ts";

describe("API key secrets", () => {
  it("are long, prefixed and hashed with SHA-256", () => {
    const { secret, prefix, hash } = newApiKeySecret();
    expect(secret).toMatch(/^kule_[A-Za-z0-9]{40}$/);
    expect(prefix).toBe(secret.slice(0, 13));
    expect(hash).toBe(hashApiKey(secret));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
  it("never repeat", () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => newApiKeySecret().secret));
    expect(secrets.size).toBe(1000);
  });
});
