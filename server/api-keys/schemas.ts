import { z } from "zod";
import { displayName, id, perMinuteLimit, priorityClass } from "../schemas/common.ts";

export const listApiKeysInput = z.object({ tenantId: id.nullish() });

export const createApiKeyInput = z.object({
  /** A tenant user's own tenant whatever it names (another is NOT_FOUND); required for admins. */
  tenantId: id.nullish(),
  name: displayName,
  allowedEndpointIds: z.array(id).max(100).default([]),
  expiresAt: z.coerce
    .date()
    .nullish()
    .refine((d) => !d || d.getTime() > Date.now(), "must be in the future"),
  /** This key's own limits, within its tenant's; null or omitted = only the tenant's apply. */
  rpmLimit: perMinuteLimit.optional(),
  tpmLimit: perMinuteLimit.optional(),
});

export const setApiKeyLimitsInput = z.object({
  id,
  rpmLimit: perMinuteLimit,
  tpmLimit: perMinuteLimit,
  /** The key's class in the overload queue, at most its plan's; null = the plan's. Omitted: unchanged. */
  priority: priorityClass.nullable().optional(),
  /** May raise its calls' class with the x-kule-priority header, up to the plan's. */
  mayRaisePriority: z.boolean().optional(),
});

export const revokeApiKeyInput = z.object({ id });

export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;
export type ListApiKeysInput = z.infer<typeof listApiKeysInput>;
export type SetApiKeyLimitsInput = z.infer<typeof setApiKeyLimitsInput>;
export type RevokeApiKeyInput = z.infer<typeof revokeApiKeyInput>;
