import { z } from "zod";
import { id } from "../schemas/common.ts";
import { replicaCount, splitInput } from "../shared/deploy-layout.ts";

/** The revision of the endpoint the caller's view was based on: a stale view is refused. */
const expectedRevision = z.number().int("a whole number");

export const setWeightsInput = z
  .object({
    endpointId: id,
    expectedRevision,
    weights: z
      .array(z.object({ endpointVersionId: id, weight: z.number().int("whole percent").min(0, "0 to 100").max(100, "0 to 100") }))
      .min(1, "at least one version"),
  })
  .refine((v) => v.weights.reduce((s, w) => s + w.weight, 0) === 100, { path: ["weights"], message: "weights must sum to 100" });

export const deployInput = z.object({
  endpointId: id,
  modelVersionId: id,
  replicas: replicaCount,
  /** Absent: the model version's stated split, or the smallest one the pool's GPUs hold. */
  parallelism: splitInput.optional(),
  expectedRevision,
});

/** How a model version would lay over the endpoint pool's GPUs, before it is deployed. */
export const versionFitInput = z.object({ endpointId: id, modelVersionId: id, parallelism: splitInput.optional() });
export type VersionFitInput = z.infer<typeof versionFitInput>;

export const promoteInput = z.object({
  endpointId: id,
  endpointVersionId: id,
  expectedRevision,
  /** How long in-flight requests (long streams) of the replaced version may take to finish. */
  drainTimeoutSeconds: z.number().int("whole seconds").min(0, "0 to 3600 s").max(3600, "0 to 3600 s").default(120),
});

export const blueGreenInput = z.object({
  endpointId: id,
  endpointVersionId: id,
  expectedRevision,
  /** The replaced version stays ready, at 0%, this long: an instant way back. */
  keepWarmSeconds: z.number().int("whole seconds").min(0, "0 to 86400 s").max(86_400, "0 to 86400 s").default(900),
  drainTimeoutSeconds: z.number().int("whole seconds").min(0, "0 to 3600 s").max(3600, "0 to 3600 s").default(120),
});

export const rollbackInput = z.object({ endpointId: id, expectedRevision });

export const removeVersionInput = z.object({
  endpointId: id,
  endpointVersionId: id,
  expectedRevision,
  drainTimeoutSeconds: z.number().int("whole seconds").min(0, "0 to 3600 s").max(3600, "0 to 3600 s").default(30),
});

export const planStep = z.object({
  weight: z.number().int("whole percent").min(1, "1 to 100").max(100, "1 to 100"),
  holdSeconds: z.number().int("whole seconds").min(1, "at least 1 s").max(7 * 86_400, "at most 7 days"),
});

export const analysisConfig = z.object({
  windowSeconds: z.number().int("whole seconds").min(5, "at least 5 s").max(86_400, "at most 1 day").default(300),
  latencyMarginPct: z.number().min(0, "0 to 1000 %").max(1000, "0 to 1000 %").default(20),
  latencyMarginMs: z.number().min(0, "0 to 60000 ms").max(60_000, "0 to 60000 ms").default(25),
  errorMarginPoints: z.number().min(0, "0 to 100 points").max(100, "0 to 100 points").default(1),
  minRequests: z.number().int("a whole number").min(1, "at least 1").max(1_000_000).default(20),
});

export const startPlanInput = z.object({
  endpointId: id,
  canaryVersionId: id,
  expectedRevision,
  steps: z
    .array(planStep)
    .min(1, "at least one step")
    .max(20, "at most 20 steps")
    .refine((s) => s.every((x, i) => i === 0 || x.weight > s[i - 1]!.weight), "each step's weight must be above the previous one")
    .refine((s) => s[s.length - 1]!.weight === 100, "the last step must be 100 (the promote)"),
  analysis: analysisConfig.default({ windowSeconds: 300, latencyMarginPct: 20, latencyMarginMs: 25, errorMarginPoints: 1, minRequests: 20 }),
  drainTimeoutSeconds: z.number().int("whole seconds").min(0, "0 to 3600 s").max(3600, "0 to 3600 s").default(120),
});

export const planActionInput = z.object({
  rolloutId: id,
  action: z.enum(["pause", "resume", "advance", "abort"]),
  /** The rollout's revision the caller saw. */
  expectedRevision,
});

export const endpointRefInput = z.object({ endpointId: id });

export type DeployInput = z.infer<typeof deployInput>;
export type PromoteInput = z.infer<typeof promoteInput>;
export type BlueGreenInput = z.infer<typeof blueGreenInput>;
export type RollbackInput = z.infer<typeof rollbackInput>;
export type RemoveVersionInput = z.infer<typeof removeVersionInput>;
export type StartPlanInput = z.infer<typeof startPlanInput>;
export type PlanActionInput = z.infer<typeof planActionInput>;
export type SetWeightsInput = z.infer<typeof setWeightsInput>;
export type EndpointRefInput = z.infer<typeof endpointRefInput>;
