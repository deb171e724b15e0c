import type { PrismaClient } from "../db/generated/client.ts";

/**
 * How long a sign-in for an e-mail must wait after `failures` failed attempts: nothing for the
 * first `free` ones, then doubling from 1 s up to 5 minutes. Kept per e-mail in the database so
 * every app process sees the same count.
 */
export function loginDelayMs(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(1000 * 2 ** (failures - free), 5 * 60_000);
}

/** Milliseconds the caller must still wait before trying this e-mail again (0 = go ahead). */
export async function loginWaitMs(db: PrismaClient, email: string, free: number, now = Date.now()): Promise<number> {
  const row = await db.loginThrottle.findUnique({ where: { email } });
  if (!row) return 0;
  const until = row.lastFailedAt.getTime() + loginDelayMs(row.failures, free);
  return Math.max(0, until - now);
}

export async function recordLoginFailure(db: PrismaClient, email: string): Promise<void> {
  await db.loginThrottle.upsert({
    where: { email },
    create: { email, failures: 1, lastFailedAt: new Date() },
    update: { failures: { increment: 1 }, lastFailedAt: new Date() },
  });
}

export async function clearLoginFailures(db: PrismaClient, email: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { email } });
}
