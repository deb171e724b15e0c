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

/**
 * Takes one attempt at this e-mail's password, or says how many milliseconds to wait first (0 = go
 * ahead). The attempt counts as a failure until clearLoginFailures says it was right: checked and
 * counted under the row's lock, so a burst of parallel guesses cannot all read the count before the
 * first of them adds to it (each waits for the one before, and past the free attempts is told to wait).
 */
export async function takeLoginAttempt(db: PrismaClient, email: string, free: number): Promise<number> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO "LoginThrottle" ("email") VALUES (${email}) ON CONFLICT ("email") DO NOTHING`;
    await tx.$queryRaw`SELECT 1 FROM "LoginThrottle" WHERE "email" = ${email} FOR UPDATE`;
    const row = await tx.loginThrottle.findUniqueOrThrow({ where: { email } });
    const delay = loginDelayMs(row.failures, free);
    // A fresh row's time is the database's, not ours; it only matters once there is a delay.
    const waitMs = delay === 0 ? 0 : row.lastFailedAt.getTime() + delay - Date.now();
    if (waitMs > 0) return waitMs;
    await tx.loginThrottle.update({ where: { email }, data: { failures: { increment: 1 }, lastFailedAt: new Date() } });
    return 0;
  });
}

export async function clearLoginFailures(db: PrismaClient, email: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { email } });
}
