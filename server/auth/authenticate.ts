import type { PrismaClient } from "../db/generated/client.ts";
import { verifyPassword } from "./password.ts";
import { membershipActive, membershipInclude } from "./membership.ts";
import { clearLoginFailures, loginWaitMs, recordLoginFailure } from "./throttle.ts";

export type AuthResult = { ok: true; userId: string; email: string; name: string } | { ok: false; reason: "invalid" | "throttled"; waitMs?: number };

// Compared against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password.
const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.Gd4uSbf7CX8gqHmOQhcGZVqjbY9e";

export async function authenticate(db: PrismaClient, rawEmail: string, password: string, freeAttempts: number): Promise<AuthResult> {
  const email = rawEmail.trim().toLowerCase();
  const waitMs = await loginWaitMs(db, email, freeAttempts);
  if (waitMs > 0) return { ok: false, reason: "throttled", waitMs };
  const user = await db.user.findUnique({ where: { email }, include: membershipInclude });
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !valid || !membershipActive(user.membership)) {
    await recordLoginFailure(db, email);
    return { ok: false, reason: "invalid" };
  }
  await clearLoginFailures(db, email);
  return { ok: true, userId: user.id, email: user.email, name: user.name };
}
