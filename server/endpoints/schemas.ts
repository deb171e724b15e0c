import { z } from "zod";
import { displayName, id, slug } from "../schemas/common.ts";
import { ReplicaChoice, ServingEngine } from "../db/generated/enums.ts";

const regionConstraint = z
  .string()
  .trim()
  .regex(/^[a-z]{2}(-[a-z]+)?-?$/, "a region or prefix such as tr- or eu-fra")
  .nullish()
  .or(z.literal("").transform(() => null));

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
  regionConstraint,
  stickySessions: z.boolean().default(false),
});

/** A request class's rule: what a call must carry to be of the class (server/endpoints/request-classes.ts applies it). */
export const requestClassMatch = z.discriminatedUnion("kind", [
  /** Prompts of more than `tokens` tokens, estimated by the gateway as characters ÷ 4 (it does not tokenize). */
  z.object({ kind: z.literal("prompt_tokens_over"), tokens: z.number().int("a whole number").min(1, "at least 1").max(10_000_000, "at most 10000000") }),
  /** A request header equal to `value` (names are case-insensitive). */
  z.object({
    kind: z.literal("header"),
    name: z.string().trim().toLowerCase().regex(/^[a-z0-9-]{1,64}$/, "a header name: letters, digits and -"),
    value: z.string().min(1, "a value to match").max(200, "at most 200 characters"),
  }),
  /** The OpenAI `metadata` object's `key` equal to `value`. */
  z.object({
    kind: z.literal("metadata"),
    key: z.string().trim().min(1, "a metadata key").max(64, "at most 64 characters"),
    value: z.string().min(1, "a value to match").max(512, "at most 512 characters"),
  }),
]);

/** A class: its name (in the call log), its rule, and the endpoint its calls go to. */
export const requestClass = z.object({
  name: z.string().trim().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "lower-case letters, digits, _ and -, at most 32"),
  match: requestClassMatch,
  /** The endpoint the class's calls go to. */
  endpointId: id,
});

export const requestClasses = z.array(requestClass).max(16, "at most 16 classes");

export type RequestClass = z.infer<typeof requestClass>;

/** Name, stickiness, region rule and routing; `expectedRevision` as the editor loaded it (SLOs: updateSloInput). */
export const updateEndpointInput = z.object({
  id,
  expectedRevision: z.number().int("a whole number"),
  name: displayName.optional(),
  stickySessions: z.boolean().optional(),
  regionConstraint: regionConstraint.optional(),
  replicaChoice: z.enum(ReplicaChoice).optional(),
  /** Every tenant's prompts get a prefix cache of their own here (vLLM cache_salt). */
  privatePrefixCache: z.boolean().optional(),
  /** Tried in this order on a 5xx, a 429 or no first byte in time. */
  fallbackEndpointIds: z.array(id).max(4, "at most 4 fallbacks").refine((ids) => new Set(ids).size === ids.length, "an endpoint only once").optional(),
  requestClasses: requestClasses.optional(),
});

/** Shadow traffic: the share of the endpoint's calls also sent to a version at weight 0 (0 stops it). */
export const setShadowInput = z.object({
  endpointVersionId: id,
  expectedRevision: z.number().int("a whole number"),
  percent: z.number().int("a whole percent").min(0, "0 to 100").max(100, "0 to 100"),
});

export const retireEndpointInput = z.object({ id, expectedRevision: z.number().int("a whole number") });

export const endpointIdInput = z.object({ id });

export const addEndpointVersionInput = z.object({ endpointId: id, modelVersionId: id, expectedRevision: z.number().int() });

export type CreateEndpointInput = z.infer<typeof createEndpointInput>;
export type EndpointIdInput = z.infer<typeof endpointIdInput>;
export type AddEndpointVersionInput = z.infer<typeof addEndpointVersionInput>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointInput>;
export type SetShadowInput = z.infer<typeof setShadowInput>;
export type RetireEndpointInput = z.infer<typeof retireEndpointInput>;
