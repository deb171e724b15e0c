import { procedure, router } from "../trpc/init.ts";
import { authSettingsInput, ssoRuleInput, ssoRuleMoveInput, ssoRuleRefInput, ssoRuleUpdateInput } from "../auth/sso/schemas.ts";
import { authSettings, createRule, deleteRule, listRules, moveRule, setAuthSettings, updateRule } from "../auth/sso/rules.ts";

/** Single sign-on: the rules that map an identity's claims to a role and tenant, and whether local passwords still work. Admins only (they decide who gets which role, as user:write does). */
export const ssoRouter = router({
  rules: procedure("user:read").query(({ ctx }) => listRules(ctx.db)),
  createRule: procedure("user:write").input(ssoRuleInput).mutation(({ ctx, input }) => createRule(ctx, input)),
  updateRule: procedure("user:write").input(ssoRuleUpdateInput).mutation(({ ctx, input }) => updateRule(ctx, input)),
  deleteRule: procedure("user:write").input(ssoRuleRefInput).mutation(({ ctx, input }) => deleteRule(ctx, input)),
  moveRule: procedure("user:write").input(ssoRuleMoveInput).mutation(({ ctx, input }) => moveRule(ctx, input)),
  settings: procedure("user:read").query(({ ctx }) => authSettings(ctx.db)),
  setSettings: procedure("user:write").input(authSettingsInput).mutation(({ ctx, input }) => setAuthSettings(ctx, input)),
});
