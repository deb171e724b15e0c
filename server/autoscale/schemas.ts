import { z } from "zod";
import { id } from "../schemas/common.ts";

export const autoscaleSignals = ["waiting_per_replica", "kv_cache_usage", "in_flight_per_replica"] as const;

const windowSeconds = z.number().int("whole seconds").min(0, "0 or more seconds").max(3600, "at most an hour");

export const setAutoscaleInput = z
  .object({
    endpointVersionId: id,
    enabled: z.boolean().default(true),
    /** The warm floor; 0 lets the version scale to zero (the gateway holds calls while one starts). */
    minReplicas: z.number().int("a whole number").min(0, "0 or more").max(64, "at most 64"),
    maxReplicas: z.number().int("a whole number").min(1, "at least 1").max(64, "at most 64"),
    signal: z.enum(autoscaleSignals),
    target: z.number().positive("greater than 0").max(10_000, "at most 10,000"),
    scaleUpWindowSeconds: windowSeconds.default(0),
    scaleDownWindowSeconds: windowSeconds.default(300),
    /** The revision the form was loaded with; absent when creating the policy. */
    expectedRevision: z.number().int().min(1).optional(),
  })
  .refine((i) => i.maxReplicas >= i.minReplicas, { path: ["maxReplicas"], message: "at least the minimum" })
  .refine((i) => i.signal !== "kv_cache_usage" || i.target <= 1, { path: ["target"], message: "KV-cache use is a share: a target between 0 and 1, such as 0.8" });
export type SetAutoscaleInput = z.infer<typeof setAutoscaleInput>;

export const autoscaleRefInput = z.object({ endpointVersionId: id });
export type AutoscaleRefInput = z.infer<typeof autoscaleRefInput>;

export const autoscaleHistoryInput = z.object({ endpointId: id, hours: z.number().int().min(1).max(48).default(6) });
export type AutoscaleHistoryInput = z.input<typeof autoscaleHistoryInput>;

/** Scale from zero, per endpoint: the calls a gateway holds while a replica starts, and for how long. */
export const coldStartInput = z.object({
  endpointId: id,
  coldStartQueueLimit: z.number().int("a whole number").min(0, "0 or more (0 refuses at once)").max(10_000, "at most 10,000"),
  coldStartTimeoutSeconds: z.number().int("whole seconds").min(1, "at least 1 second").max(900, "at most 15 minutes"),
});
export type ColdStartInput = z.infer<typeof coldStartInput>;
