import { describe, expect, it } from "vitest";
import { caller, makeActor, makeTenant } from "../test/harness.ts";

describe("system status", () => {
  it("tells a tenant whether metrics are on, never where Kule's parts run", async () => {
    const tenant = await makeActor("tenant", (await makeTenant()).id);
    const seen = await caller(tenant).system.status();
    expect(seen.simulator.url).toBeNull();
    expect(seen.prometheus.url).toBeNull();
    expect(JSON.stringify(seen)).not.toMatch(/https?:\/\/|127\.0\.0\.1|localhost/);
    expect(seen.prometheus).toMatchObject({ configured: false, reachable: false });
  });

  it("tells staff where the simulator runs, to fix it", async () => {
    const operator = await makeActor("operator");
    expect((await caller(operator).system.status()).simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
