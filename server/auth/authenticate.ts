import type { PrismaClient } from "../db/generated/client.ts";
import { verifyPassword } from "./password.ts";
import { membershipActive, membershipInclude } from "./membership.ts";
import { clearLoginFailures, takeLoginAttempt } from "./throttle.ts";
import { auditSignIn } from "./sso/audit.ts";

export type AuthResult = { ok: true; userId: string; email: string; name: string } | { ok: false; reason: "invalid" | "throttled" | "passwords_off"; waitMs?: number };

// Compared against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password.
const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.Gd4uSbf7CX8gqHmOQhcGZVqjbY9e";

/**
 * A password sign-in. With local passwords turned off (AuthSettings), only admins still sign in
 * with theirs: the break-glass way in when the identity provider is down. Every outcome is an
 * audit event (server/auth/sso/audit.ts).
 */
export async function authenticate(db: PrismaClient, rawEmail: string, password: string, freeAttempts: number, ip: string | null = null): Promise<AuthResult> {
  const email = rawEmail.trim().toLowerCase();
  const refuse = async (reason: "invalid" | "throttled" | "passwords_off", userId?: string, waitMs?: number): Promise<AuthResult> => {
    await auditSignIn(db, { method: "password", ok: false, email, ip, userId, code: reason });
    return waitMs === undefined ? { ok: false, reason } : { ok: false, reason, waitMs };
  };
  // Counted as a failure from here until the password proves right (server/auth/throttle.ts).
  const waitMs = await takeLoginAttempt(db, email, freeAttempts);
  if (waitMs > 0) return refuse("throttled", undefined, waitMs);
  const user = await db.user.findUnique({ where: { email }, include: membershipInclude });
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !valid || !membershipActive(user.membership)) return refuse("invalid", user?.id);
  await clearLoginFailures(db, email);
  const settings = await db.authSettings.findUnique({ where: { id: "singleton" } });
  if (settings && !settings.localPasswords && user.membership?.role !== "admin") return refuse("passwords_off", user.id);
  await auditSignIn(db, { method: "password", ok: true, email: user.email, ip, userId: user.id });
  return { ok: true, userId: user.id, email: user.email, name: user.name };
}
