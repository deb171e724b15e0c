import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { ownDatabase } from "../../test/own-db.ts";
import { uid } from "../../test/harness.ts";
import { hashPassword } from "../password.ts";
import { authenticate } from "../authenticate.ts";
import { ssoSignIn } from "./sign-in.ts";
import type { Actor } from "../actor.ts";

// A database of this file's own: it turns local passwords off, which would refuse other files' sign-ins.
let own: Awaited<ReturnType<typeof ownDatabase>>;
let admin: Actor;
let tenantId: string;
const ISSUER = "https://idp.example";

beforeAll(async () => {
  own = await ownDatabase("sso");
  const a = await own.db.user.create({ data: { email: `admin-${uid()}@t.local`, name: "Admin", passwordHash: await hashPassword("admin-password-1"), membership: { create: { role: "admin" } } } });
  admin = { userId: a.id, email: a.email, name: a.name, role: "admin", tenantId: null };
  tenantId = (await own.db.tenant.create({ data: { name: "Anadolu", slug: `t-${uid()}` } })).id;
});
afterAll(async () => own?.close());

const identity = (sub: string, groups: string[]) => ({ sub, email: `${sub}@idp.example`, email_verified: true, name: `Person ${sub}`, groups });
const lastEvent = (action: string) => own.db.auditEvent.findFirst({ where: { action }, orderBy: { id: "desc" } });

describe("single sign-on", () => {
  it("creates the user at the first sign-in with the first matching rule's role and tenant, and follows the rules later", async () => {
    const api = own.caller(admin).sso;
    await api.createRule({ claim: "groups", value: "anadolu-ai", role: "tenant", tenantId });
    const ops = await api.createRule({ claim: "groups", value: "kule-operators", role: "operator" });
    const first = await ssoSignIn(own.db, ISSUER, identity("ayse", ["anadolu-ai", "kule-operators"]), "10.0.0.9");
    expect(first.ok).toBe(true);
    const user = await own.db.user.findUniqueOrThrow({ where: { ssoSubject: `${ISSUER}|ayse` }, include: { membership: true } });
    expect([user.passwordHash, user.membership?.role, user.membership?.tenantId]).toEqual([null, "tenant", tenantId]);
    expect(await lastEvent("auth.sign_in")).toMatchObject({ actorId: user.id, ip: "10.0.0.9", after: { method: "sso", role: "tenant" } });

    // The operators' rule moved first: the same person's next sign-in makes them an operator, audited.
    await api.moveRule({ id: ops.id, expectedVersion: ops.version, direction: "up" });
    expect(await ssoSignIn(own.db, ISSUER, identity("ayse", ["anadolu-ai", "kule-operators"]), null)).toEqual({ ok: true, userId: user.id });
    expect((await own.db.membership.findUniqueOrThrow({ where: { userId: user.id } })).role).toBe("operator");
    expect(await lastEvent("user.role.set")).toMatchObject({ targetId: user.id, before: { role: "tenant" }, after: { role: "operator", via: "sso" } });
  });

  it("refuses an unknown group, saying which groups it saw, and creates no one", async () => {
    const r = await ssoSignIn(own.db, ISSUER, identity("mallory", ["marketing"]), null);
    expect(r).toEqual({ ok: false, code: "no_rule", reason: "no sign-in rule matches this identity (groups: marketing)" });
    expect(await own.db.user.count({ where: { email: "mallory@idp.example" } })).toBe(0);
    expect(await lastEvent("auth.sign_in.refused")).toMatchObject({ actorId: null, after: { method: "sso", code: "no_rule", email: "mallory@idp.example" } });
  });

  it("does not take over a local account the provider does not vouch for", async () => {
    await own.db.user.create({ data: { email: "local@idp.example", name: "Local", passwordHash: "x", membership: { create: { role: "auditor" } } } });
    const r = await ssoSignIn(own.db, ISSUER, { ...identity("local", ["kule-operators"]), email_verified: false }, null);
    expect(r).toMatchObject({ ok: false, code: "email_taken" });
  });

  it("refuses a stale edit of a rule and a rule whose tenant is missing", async () => {
    const api = own.caller(admin).sso;
    const [rule] = await api.rules();
    await api.updateRule({ id: rule!.id, expectedVersion: rule!.version, claim: "groups", value: "anadolu-ai", role: "tenant", tenantId });
    await expect(api.updateRule({ id: rule!.id, expectedVersion: rule!.version, claim: "groups", value: "x", role: "auditor" })).rejects.toMatchObject({ code: "CONFLICT" });
    const err = await api.createRule({ claim: "groups", value: "y", role: "tenant", tenantId: "no-such-tenant" }).catch((e: TRPCError) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("BAD_REQUEST");
  });

  it("with local passwords off, refuses everyone's password but an admin's (break-glass), each sign-in audited", async () => {
    const api = own.caller(admin).sso;
    const op = await own.db.user.create({ data: { email: `op-${uid()}@t.local`, name: "Op", passwordHash: await hashPassword("operator-password"), membership: { create: { role: "operator" } } } });
    expect(await authenticate(own.db, op.email, "operator-password", 5)).toMatchObject({ ok: true });
    // Kule has no provider configured in this process: turning passwords off is refused, saying why.
    const s = await api.settings();
    await expect(api.setSettings({ localPasswords: false, expectedVersion: s.version })).rejects.toThrow(/not configured/);
    await own.db.authSettings.upsert({ where: { id: "singleton" }, create: { localPasswords: false }, update: { localPasswords: false } });
    expect(await authenticate(own.db, op.email, "operator-password", 5)).toEqual({ ok: false, reason: "passwords_off" });
    expect(await authenticate(own.db, admin.email, "admin-password-1", 5)).toMatchObject({ ok: true });
    const events = await own.db.auditEvent.findMany({ where: { action: { startsWith: "auth.sign_in" }, after: { path: ["method"], equals: "password" } }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.action, (e.after as { code?: string }).code ?? null])).toEqual([
      ["auth.sign_in", null],
      ["auth.sign_in.refused", "passwords_off"],
      ["auth.sign_in", null],
    ]);
  });
});
