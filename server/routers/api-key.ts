import { procedure, router } from "../trpc/init.ts";
import { createApiKeyInput, listApiKeysInput, revokeApiKeyInput, setApiKeyLimitsInput } from "../api-keys/schemas.ts";
import { createApiKey, listApiKeys, revokeApiKey, setApiKeyLimits } from "../api-keys/api-keys.ts";

export const apiKeyRouter = router({
  list: procedure("api-key:read").input(listApiKeysInput).query(({ ctx, input }) => listApiKeys(ctx, input)),
  create: procedure("api-key:write").input(createApiKeyInput).mutation(({ ctx, input }) => createApiKey(ctx, input)),
  setLimits: procedure("api-key:write").input(setApiKeyLimitsInput).mutation(({ ctx, input }) => setApiKeyLimits(ctx, input)),
  revoke: procedure("api-key:write").input(revokeApiKeyInput).mutation(({ ctx, input }) => revokeApiKey(ctx, input)),
});
