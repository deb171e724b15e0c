import { z } from "zod";
import { id } from "../schemas/common.ts";
import { RANGES, type RangeName } from "./promql.ts";

export const rangeInput = z.enum(Object.keys(RANGES) as [RangeName, ...RangeName[]]).default("15m");

export const endpointChartsInput = z.object({ endpointId: id, range: rangeInput });

/** Label values as dcgm-exporter and the sim write them; escaped into PromQL anyway. */
const labelText = z.string().trim().min(1, "required").max(128, "at most 128 characters");

export const gpuChartsInput = z.object({
  scope: z.discriminatedUnion("kind", [z.object({ kind: z.literal("node"), hostname: labelText }), z.object({ kind: z.literal("gpu"), uuid: labelText }), z.object({ kind: z.literal("replica"), replicaId: id })]),
  range: rangeInput,
});

/** Strict: a `tenantId` (or anything else) in the input is refused rather than silently ignored. */
export const tenantChartsInput = z.object({ range: rangeInput }).strict();

export const exploreInput = z.object({
  query: z.string().trim().min(1, "enter a PromQL query").max(4000, "at most 4000 characters"),
  range: rangeInput,
});

export const grafanaDashboardInput = z.object({ endpointId: id });
