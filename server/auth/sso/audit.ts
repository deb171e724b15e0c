import type { DbTx } from "../../db/client.ts";
import { recordAudit } from "../../audit/record.ts";

/** Why a sign-in was refused: the login page words each (app/login/sign-in-errors.ts). */
export const SIGN_IN_REFUSALS = ["invalid", "throttled", "passwords_off", "no_rule", "no_claims", "tenant_gone", "no_email", "email_taken", "invalid_token"] as const;
export type SignInRefusal = (typeof SIGN_IN_REFUSALS)[number];

interface SignInEvent {
  method: "password" | "sso";
  ok: boolean;
  email: string | null;
  ip: string | null;
  userId?: string;
  subject?: string;
  code?: SignInRefusal;
  reason?: string;
  role?: string;
  rule?: string;
}

/**
 * Every sign-in, let in or refused, is an audit event ("auth.sign_in" / "auth.sign_in.refused"),
 * with the method, the identity and, for a refusal, why. Never the password or the token.
 */
export async function auditSignIn(db: DbTx, e: SignInEvent): Promise<void> {
  await recordAudit(db, {
    actor: e.ok && e.userId && e.email ? { userId: e.userId, email: e.email } : null,
    ip: e.ip,
    action: e.ok ? "auth.sign_in" : "auth.sign_in.refused",
    targetType: "user",
    targetId: e.userId ?? e.email ?? e.subject ?? null,
    after: { method: e.method, email: e.email, subject: e.subject, role: e.role, rule: e.rule, code: e.code, reason: e.reason },
  });
}
