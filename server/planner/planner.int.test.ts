import { beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, makeModelWithVersions, testDb } from "../test/harness.ts";
import type { Actor } from "../auth/actor.ts";

let operator: Actor;
const forecast = { peakRps: 4, promptTokens: 1000, answerTokens: 250 };
const slo = { ttftP99Ms: 2000, tpotP99Ms: 50 };

beforeAll(async () => {
  operator = await makeActor("operator");
});

describe("the capacity planner through the control plane", () => {
  it("sizes a registered 70B version on the fleet's GPU kinds, ranked, the best checked against today's free GPUs", async () => {
    const model = await makeModelWithVersions(["1.0"]);
    await testDb().modelVersion.update({ where: { id: model.versions[0]!.id }, data: { parameterCount: 70_600_000_000n, weightBytes: 141_200_000_000n, minGpuMemoryBytes: 0n, precision: "bf16", layers: 80, kvHeads: 8, headDim: 128 } });
    const plan = await caller(operator).planner.plan({ modelVersionId: model.versions[0]!.id, forecast, slo });
    expect(plan.model).toMatchObject({ kvBytesPerToken: 320 * 1024, cardKnown: true });
    const best = plan.candidates[0]!;
    expect(best).toMatchObject({ rank: 1, refused: null, gpu: "NVIDIA H100 80GB HBM3" });
    expect(best.split.tensor).toBeGreaterThanOrEqual(2);
    // The test fleet has two H100s on one node: the plan says what fits now, and why not more.
    expect(best.fitsNow?.text).toMatch(/replica\(s\) fit/);
    expect(plan.candidates.find((c) => c.device === "NVIDIA L40S")!.refused).toMatch(/is more than the 43\.2 GiB usable of a NVIDIA L40S$/);
  });

  it("refuses tenants and auditors, a model that is not a language model, and both a version and a card", async () => {
    for (const role of ["tenant", "auditor"] as const) {
      await expect(caller(await makeActor(role)).planner.plan({ card: { parameterCount: 8e9, precision: "bf16", layers: 32, kvHeads: 8, headDim: 128 }, forecast, slo })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    const vision = await testDb().model.create({ data: { name: `v-${Date.now()}`, task: "vision", versions: { create: { version: "1", artifactUri: "s3://v/1", format: "triton", precision: "fp16", parameterCount: 1n, weightBytes: 1n, minGpuMemoryBytes: 1n } } }, include: { versions: true } });
    await expect(caller(operator).planner.plan({ modelVersionId: vision.versions[0]!.id, forecast, slo })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("the planner sizes language models") });
    await expect(caller(operator).planner.plan({ modelVersionId: vision.versions[0]!.id, card: { parameterCount: 8e9, precision: "bf16", layers: 32, kvHeads: 8, headDim: 128 }, forecast, slo })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("not both") });
  });
});
