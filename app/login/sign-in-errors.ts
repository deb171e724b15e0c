import type { SignInRefusal } from "@/server/auth/sso/audit";

/**
 * What the sign-in page says when single sign-on comes back refused (`?code=`) or failed
 * (`?error=`, next-auth's). Fixed texts only: nothing from the address bar is shown as it is.
 * The refusal itself, with the claims seen, is in the audit log.
 */
const REFUSALS: Partial<Record<SignInRefusal, string>> = {
  no_rule: "Your identity provider signed you in, but none of Kule's sign-in rules matches your groups, so Kule has no role for you. Ask an admin to add a rule for one of your groups (under Users & roles).",
  no_claims: "Your identity provider sent none of the claims Kule's sign-in rules read (such as groups). Ask an admin to check the provider's claim mapping.",
  tenant_gone: "The tenant your groups map to has been offboarded: its people can no longer sign in.",
  no_email: "Your identity provider sent no e-mail address. Ask an admin to add the email scope for Kule at the provider.",
  email_taken: "Your e-mail address already belongs to another Kule account that the provider does not vouch for. Ask an admin to link the accounts.",
  invalid_token: "The identity provider's answer could not be verified (its signature or claims do not hold), so Kule did not sign you in. Try again; if it happens again, tell an admin.",
};

export function signInMessage(params: { code?: string; error?: string }): string | null {
  if (params.code) return REFUSALS[params.code as SignInRefusal] ?? "Single sign-on was refused. Try again, or ask an admin.";
  if (params.error === "SessionRequired") return "Your session has ended: sign in again.";
  if (params.error) return "Single sign-on did not complete: the identity provider's answer was refused. Try again; if it happens again, tell an admin.";
  return null;
}
