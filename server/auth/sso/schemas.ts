import { z } from "zod";
import { id } from "../../schemas/common.ts";
import { Role } from "../../db/generated/enums.ts";

const version = z.number().int("a whole number").min(1, "a version seen on the page");

/** One sign-in rule: the claim and the value it must hold, and the role (and tenant) it gives. */
const ruleFields = {
  claim: z
    .string()
    .trim()
    .min(1, "required")
    .max(64, "at most 64 characters")
    .regex(/^[A-Za-z0-9_:.\-/]+$/, "a claim name: letters, digits and _ : . - /"),
  value: z.string().trim().min(1, "required").max(200, "at most 200 characters"),
  role: z.enum(Role),
  tenantId: id.nullish(),
};
const tenantMatchesRole = (v: { role: Role; tenantId?: string | null }) => (v.role === "tenant" ? !!v.tenantId : !v.tenantId);
const tenantRule = { path: ["tenantId"], message: "the tenant role needs a tenant; other roles must not have one" };

export const ssoRuleInput = z.object(ruleFields).refine(tenantMatchesRole, tenantRule);
export const ssoRuleUpdateInput = z.object({ id, expectedVersion: version, ...ruleFields }).refine(tenantMatchesRole, tenantRule);
export const ssoRuleRefInput = z.object({ id, expectedVersion: version });
export const ssoRuleMoveInput = z.object({ id, expectedVersion: version, direction: z.enum(["up", "down"]) });
export const authSettingsInput = z.object({ localPasswords: z.boolean(), expectedVersion: version });

export type SsoRuleInput = z.infer<typeof ssoRuleInput>;
export type SsoRuleUpdateInput = z.infer<typeof ssoRuleUpdateInput>;
export type SsoRuleRefInput = z.infer<typeof ssoRuleRefInput>;
export type SsoRuleMoveInput = z.infer<typeof ssoRuleMoveInput>;
export type AuthSettingsInput = z.infer<typeof authSettingsInput>;
