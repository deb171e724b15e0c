import { z } from "zod";
import { displayName, id } from "../schemas/common.ts";

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
});

export const revokeApiKeyInput = z.object({ id });

export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;
export type ListApiKeysInput = z.infer<typeof listApiKeysInput>;
export type RevokeApiKeyInput = z.infer<typeof revokeApiKeyInput>;
