import { describe, expect, it } from "vitest";
import { MemoryLimiter } from "./limits.ts";

const rpm = (capacity: number) => ({ key: "rpm:k:key", capacity, cost: 1 });
const tpm = (capacity: number) => ({ key: "tpm:t:tenant", capacity, cost: 0 });

describe("token-bucket limits", () => {
  it("lets a burst up to the limit through, then refuses until a request's worth has refilled", async () => {
    const l = new MemoryLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) expect((await l.take([rpm(60)], t0)).wait).toBe(0);
    expect(await l.take([rpm(60)], t0)).toEqual({ wait: 1, bucket: "rpm:k:key" }); // 60/min: one a second
    expect((await l.take([rpm(60)], t0 + 500)).wait).toBeCloseTo(0.5);
    expect((await l.take([rpm(60)], t0 + 1000)).wait).toBe(0);
  });

  it("takes from every bucket or from none: a request refused for tokens costs no request", async () => {
    const l = new MemoryLimiter();
    const t0 = 1_000_000;
    await l.charge([tpm(600)], 900, t0); // an answer's 900 tokens against 600 a minute: 300 in debt
    const refused = await l.take([rpm(2), tpm(600)], t0);
    expect(refused.bucket).toBe("tpm:t:tenant");
    expect(refused.wait).toBeCloseTo(30.1); // out of debt (300) and one token more, at 10 a second
    // Once the tokens bucket has refilled, both requests of the requests bucket are still there.
    const later = t0 + 30_100;
    expect((await l.take([rpm(2), tpm(600)], later)).wait).toBe(0);
    expect((await l.take([rpm(2), tpm(600)], later)).wait).toBe(0);
    expect((await l.take([rpm(2), tpm(600)], later)).bucket).toBe("rpm:k:key");
  });

  it("names the bucket that is short longest", async () => {
    const l = new MemoryLimiter();
    const t0 = 1_000_000;
    await l.take([{ key: "rpm:t:tenant", capacity: 1, cost: 1 }, rpm(1000)], t0);
    expect(await l.take([{ key: "rpm:t:tenant", capacity: 1, cost: 1 }, rpm(1000)], t0)).toEqual({ wait: 60, bucket: "rpm:t:tenant" });
  });
});
