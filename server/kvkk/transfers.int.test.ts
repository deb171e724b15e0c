import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../test/own-db.ts";
import { hoursAgo, insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { runDestruction } from "./destruction.ts";
import type { Actor } from "../auth/actor.ts";
import type { Role } from "../db/generated/enums.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
const actors = {} as Record<Role, Actor>;
let abroad: string, turkeyOnly: string;

const codeOf = (p: Promise<unknown>) => p.then(() => "OK", (e: unknown) => (e instanceof TRPCError ? e.code : String(e)));
/** The fields a refusal names: a schema's issues, or the domain error's field. */
const fieldsOf = (p: Promise<unknown>) =>
  p.then(
    () => [],
    (e: TRPCError) => {
      const c = e.cause as { issues?: { path: PropertyKey[] }[]; field?: string } | undefined;
      return c?.issues ? [...new Set(c.issues.map((i) => String(i.path[0])))] : c?.field ? [c.field] : [];
    },
  );

beforeAll(async () => {
  own = await ownDatabase("kule_transfers");
  abroad = await makeTenantIn(own.pool);
  turkeyOnly = await makeTenantIn(own.pool, { kvkk: true });
  for (const role of ["admin", "operator", "auditor", "tenant"] as Role[]) {
    const u = await own.db.user.create({ data: { email: `${role}-tr@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId: role === "tenant" ? abroad : null } } } });
    actors[role] = { userId: u.id, email: u.email, name: u.name, role, tenantId: role === "tenant" ? abroad : null };
  }
}, 120_000);
afterAll(() => own?.close());

const contract = (over: object = {}) => ({ tenantId: abroad, destination: "de", importer: "Rechen GmbH, Frankfurt", mechanism: "standard_contract" as const, reference: "SCC-2026-7", signedAt: new Date("2026-12-03T12:00:00Z"), ...over });

describe("transfer safeguards (KVKK Art. 9)", () => {
  it("an admin records a standard contract; its notice to the Authority falls due 5 business days after signing", async () => {
    const s = await own.caller(actors.admin).kvkk.safeguards.create(contract());
    expect(s.notificationDueAt?.toISOString()).toBe("2026-12-10T20:59:59.999Z");
    const listed = await own.caller(actors.auditor).kvkk.safeguards.list();
    expect(listed.find((x) => x.id === s.id)).toMatchObject({ importer: "Rechen GmbH, Frankfurt", inForce: true, notification: expect.stringMatching(/due|overdue/) });
    const audit = await own.db.auditEvent.findFirst({ where: { action: "kvkk.safeguard.create", targetId: s.id } });
    expect(audit?.actorEmail).toBe(actors.admin.email);
  });

  it("names a country, not a group of them: eu is refused, eu-fra's country is de", async () => {
    expect(await fieldsOf(own.caller(actors.admin).kvkk.safeguards.create(contract({ destination: "eu" })))).toEqual(["destination"]);
  });

  it("only an admin may record one: the operator, the auditor and a tenant are refused", async () => {
    for (const role of ["operator", "auditor", "tenant"] as Role[]) expect(await codeOf(own.caller(actors[role]).kvkk.safeguards.create(contract()))).toBe("FORBIDDEN");
  });

  it("refuses one for a tenant whose contract keeps it in Turkey, one for Turkey itself, and a signing date in the future", async () => {
    expect(await fieldsOf(own.caller(actors.admin).kvkk.safeguards.create(contract({ tenantId: turkeyOnly })))).toEqual(["tenantId"]);
    expect(await fieldsOf(own.caller(actors.admin).kvkk.safeguards.create(contract({ destination: "tr" })))).toEqual(["destination"]);
    expect(await fieldsOf(own.caller(actors.admin).kvkk.safeguards.create(contract({ signedAt: new Date(Date.now() + 7 * 86_400_000) })))).toEqual(["signedAt"]);
  });

  it("records the notification and the revocation, each only against the version the admin read", async () => {
    const s = await own.caller(actors.admin).kvkk.safeguards.create(contract({ destination: "nl" }));
    const stale = new Date(s.updatedAt.getTime() - 1000);
    expect(await codeOf(own.caller(actors.admin).kvkk.safeguards.notified({ id: s.id, notifiedAt: new Date(), expectedUpdatedAt: stale }))).toBe("CONFLICT");
    const n = await own.caller(actors.admin).kvkk.safeguards.notified({ id: s.id, notifiedAt: new Date(), expectedUpdatedAt: s.updatedAt });
    expect((await own.caller(actors.admin).kvkk.safeguards.list()).find((x) => x.id === s.id)?.notification).toBe("done");
    const r = await own.caller(actors.admin).kvkk.safeguards.revoke({ id: s.id, expectedUpdatedAt: n.updatedAt });
    expect(r.revokedAt).not.toBeNull();
    expect((await own.caller(actors.admin).kvkk.safeguards.list()).find((x) => x.id === s.id)?.inForce).toBe(false);
  });
});

describe("the transfer register", () => {
  it("keeps every call served abroad, with its safeguard or marked as an incident, after the call log's retention destroyed the rows", async () => {
    const uncovered = await makeTenantIn(own.pool);
    // Calls from 3 days ago: the contract for "de" (signed 2026-12-03) covers abroad's calls in de-fra, nothing covers the other's.
    const at = hoursAgo(72, new Date("2026-12-07T12:00:00Z").getTime());
    await insertCalls(own.pool, [
      { tenantId: abroad, startedAt: at, region: "de-fra" },
      { tenantId: abroad, startedAt: new Date(at.getTime() + 60_000), region: "de-fra" },
      { tenantId: abroad, startedAt: at, region: "tr-ist" },
      { tenantId: uncovered, startedAt: at, region: "us-east" },
    ]);
    // Answered in Istanbul after Frankfurt (eu-fra: Germany, under the same contract) answered 503: a transfer too.
    const [retried] = await insertCalls(own.pool, [{ tenantId: abroad, startedAt: new Date(at.getTime() + 120_000), region: "tr-ist" }]);
    await own.pool.query(`UPDATE "CallLog" SET "otherRegions" = 'eu-fra' WHERE "requestId" = $1`, [retried]);
    await own.pool.query(`INSERT INTO "TenantRetention" ("tenantId", days, method, "updatedAt") VALUES ($1, 1, 'delete', now()), ($2, 1, 'delete', now())`, [abroad, uncovered]);
    await runDestruction(own.pool, { actor: actors.admin, now: new Date("2026-12-07T12:00:00Z") });
    expect((await own.pool.query(`SELECT count(*)::int AS n FROM "CallLog" WHERE "tenantId" IN ($1, $2)`, [abroad, uncovered])).rows[0].n).toBe(0);

    const range = { from: new Date("2026-12-01T00:00:00Z"), to: new Date("2026-12-08T00:00:00Z") };
    const reg = await own.caller(actors.auditor).kvkk.transfers(range);
    expect(reg.map((r) => [r.tenantId, r.region, r.calls, r.safeguard?.reference ?? null]).sort()).toEqual(
      [
        [abroad, "de-fra", 2, "SCC-2026-7"],
        [abroad, "eu-fra", 1, "SCC-2026-7"],
        [uncovered, "us-east", 1, null],
      ].sort(),
    );
    // Read again: each hour is copied once, never counted twice.
    expect((await own.caller(actors.admin).kvkk.transfers(range)).reduce((n, r) => n + r.calls, 0)).toBe(4);
  });

  it("is read by staff only: a tenant is refused", async () => {
    expect(await codeOf(own.caller(actors.tenant).kvkk.transfers({ from: new Date(0), to: new Date() }))).toBe("FORBIDDEN");
  });
});
