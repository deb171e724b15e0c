import { procedure, router } from "../trpc/init.ts";
import { createApiKeyInput, listApiKeysInput, revokeApiKeyInput } from "../api-keys/schemas.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../api-keys/api-keys.ts";

export const apiKeyRouter = router({
  list: procedure("apikey:read").input(listApiKeysInput).query(({ ctx, input }) => listApiKeys(ctx, input)),
  create: procedure("apikey:write").input(createApiKeyInput).mutation(({ ctx, input }) => createApiKey(ctx, input)),
  revoke: procedure("apikey:write").input(revokeApiKeyInput).mutation(({ ctx, input }) => revokeApiKey(ctx, input)),
});
