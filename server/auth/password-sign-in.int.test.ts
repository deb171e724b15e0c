import { beforeAll, describe, expect, it } from "vitest";
import { testDb, uid } from "../test/harness.ts";
import { hashPassword } from "./password.ts";
import { authenticate } from "./authenticate.ts";

// The password form as an attacker uses it: spellings of one e-mail, bursts, and guessing who has an account.
const PASSWORD = "correct-horse-battery";
let hash: string;
beforeAll(async () => void (hash = await hashPassword(PASSWORD)));

async function person(opts: { password?: boolean } = {}) {
  const email = `admin-${uid()}@kule.test`;
  await testDb().user.create({ data: { email, name: "Admin", passwordHash: opts.password === false ? null : hash, membership: { create: { role: "admin" } } } });
  return email;
}
const reasons = (results: Awaited<ReturnType<typeof authenticate>>[]) => results.map((r) => (r.ok ? "ok" : r.reason));

describe("password sign-in, as an attacker tries it", () => {
  it("counts every spelling of an e-mail (case, spaces around it) against the one account", async () => {
    const email = await person();
    const [local, domain] = email.split("@");
    const spellings = [` ${local!.toUpperCase()}@Kule.Test `, `\t${local}@KULE.test\n`, `${local}@kule.TEST  `];
    expect(reasons(await Promise.all(spellings.map((s) => authenticate(testDb(), s, "wrong guess", 3))))).toEqual(["invalid", "invalid", "invalid"]);
    // The free attempts are gone for the account itself, even with its right password, however it is spelt.
    expect(reasons([await authenticate(testDb(), email, PASSWORD, 3), await authenticate(testDb(), `  ${local}@${domain!.toUpperCase()}`, PASSWORD, 3)])).toEqual(["throttled", "throttled"]);
    expect(await testDb().loginThrottle.findMany({ where: { email: { contains: local!, mode: "insensitive" } }, select: { email: true, failures: true } })).toEqual([{ email, failures: 3 }]);
  });

  it("checks no more than the free attempts of a burst of parallel guesses", async () => {
    const email = await person();
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => authenticate(testDb(), email, `guess-${i}`, 3)));
    expect(reasons(burst).sort()).toEqual([...Array(3).fill("invalid"), ...Array(9).fill("throttled")]);
    expect(await authenticate(testDb(), email, PASSWORD, 3)).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("answers an unknown e-mail exactly as a wrong password, and throttles it alike", async () => {
    const known = await person();
    const unknown = `nobody-${uid()}@kule.test`;
    for (let i = 0; i < 2; i++) expect(await authenticate(testDb(), unknown, "guess", 2)).toEqual(await authenticate(testDb(), known, "guess", 2));
    expect(await authenticate(testDb(), unknown, "guess", 2)).toMatchObject({ ok: false, reason: "throttled" });
    expect(await authenticate(testDb(), known, "guess", 2)).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("takes as long for an unknown e-mail, or an account without a password, as for a wrong password", async () => {
    const time = async (email: string) => {
      const t0 = performance.now();
      await authenticate(testDb(), email, "wrong guess", 100);
      return performance.now() - t0;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const wrong: number[] = [];
    const unknown: number[] = [];
    const ssoOnly: number[] = [];
    const [known, noPassword] = [await person(), await person({ password: false })];
    // Interleaved, so the machine's load falls on all three alike.
    for (let i = 0; i < 5; i++) {
      wrong.push(await time(known));
      unknown.push(await time(`nobody-${uid()}@kule.test`));
      ssoOnly.push(await time(noPassword));
    }
    for (const other of [median(unknown), median(ssoOnly)]) expect(other / median(wrong)).toBeGreaterThan(0.5);
  });
});
