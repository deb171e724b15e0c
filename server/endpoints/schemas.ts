import { z } from "zod";
import { displayName, id, slug } from "../schemas/common.ts";
import { ServingEngine } from "../db/generated/enums.ts";

export const createEndpointInput = z.object({
  name: displayName,
  slug,
  modelId: id,
  /** The version that takes all traffic at first. */
  modelVersionId: id,
  engine: z.enum(ServingEngine),
  nodePoolId: id,
  sloAvailabilityPct: z.number().gt(50, "must be above 50").max(99.999, "at most 99.999"),
  sloP99LatencyMs: z.number().int("whole milliseconds").min(1, "at least 1 ms").max(600_000, "at most 600000 ms"),
  sloTtftMs: z.number().int("whole milliseconds").min(1, "at least 1 ms").max(600_000, "at most 600000 ms").nullish(),
  regionConstraint: z
    .string()
    .trim()
    .regex(/^[a-z]{2}(-[a-z]+)?-?$/, "a region or prefix such as tr- or eu-fra")
    .nullish()
    .or(z.literal("").transform(() => null)),
  stickySessions: z.boolean().default(false),
});

export const endpointIdInput = z.object({ id });

export const addEndpointVersionInput = z.object({ endpointId: id, modelVersionId: id, expectedRevision: z.number().int() });

export const setWeightsInput = z
  .object({
    endpointId: id,
    /** The revision the caller's view was based on: a stale view is refused, never overwritten. */
    expectedRevision: z.number().int(),
    weights: z
      .array(z.object({ endpointVersionId: id, weight: z.number().int("whole percent").min(0, "0 to 100").max(100, "0 to 100") }))
      .min(1, "at least one version"),
  })
  .refine((v) => v.weights.reduce((s, w) => s + w.weight, 0) === 100, { path: ["weights"], message: "weights must sum to 100" });

export type CreateEndpointInput = z.infer<typeof createEndpointInput>;
export type SetWeightsInput = z.infer<typeof setWeightsInput>;
export type AddEndpointVersionInput = z.infer<typeof addEndpointVersionInput>;
