import type { SignInRefusal } from "@/server/auth/sso/audit";
import { MESSAGES, type Messages } from "@/server/shared/i18n/messages";

/** The refusals the sign-in page words one by one (login.sso.refusals); any other code gets login.sso.refused. */
type WordedRefusal = keyof Messages["login"]["sso"]["refusals"] & SignInRefusal;
const isWorded = (code: string): code is WordedRefusal => Object.hasOwn(MESSAGES.en.login.sso.refusals, code);

/** A message key under `login.`: what the sign-in page says. */
export type SignInMessageKey = `sso.refusals.${WordedRefusal}` | "sso.refused" | "sso.sessionEnded" | "sso.failed";

/**
 * What the sign-in page says when single sign-on comes back refused (`?code=`) or failed
 * (`?error=`, next-auth's), as a message key under `login.`. Fixed texts only: nothing from the
 * address bar is shown as it is. The refusal itself, with the claims seen, is in the audit log.
 */
export function signInMessage(params: { code?: string; error?: string }): SignInMessageKey | null {
  if (params.code) return isWorded(params.code) ? `sso.refusals.${params.code}` : "sso.refused";
  if (params.error === "SessionRequired") return "sso.sessionEnded";
  if (params.error) return "sso.failed";
  return null;
}
