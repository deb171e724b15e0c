import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";
import { testDrivers } from "../test/harness.ts";
import { PrometheusClient } from "../metrics/prometheus-client.ts";
import type { Actor } from "../auth/actor.ts";
import { handleGuarded } from "./guarded.ts";
import { downloadExportInput, streamExportInput } from "../call-log/export/schemas.ts";
import { downloadExport } from "../call-log/export/download.ts";
import { streamExportResponse } from "../call-log/export/direct.ts";
import { runExport, startExport } from "../call-log/export/jobs.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let a: string;
let b: string;
const people: Record<"auditor" | "operator" | "tenantA" | "tenantB", Actor> = {} as never;

async function actorIn(role: Actor["role"], tenantId: string | null = null): Promise<Actor> {
  const u = await own.db.user.create({ data: { email: `${role}-${Math.random().toString(36).slice(2)}@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId } } } });
  return { userId: u.id, email: u.email, name: u.name, role, tenantId };
}

/** A GET through the route handlers' guard, as Next would call it. */
function get(actor: Actor | null, path: string, params: Record<string, string>, route: "download" | "stream") {
  const ctx = { db: own.db, actor, ip: "203.0.113.9", drivers: testDrivers(), prometheus: new PrometheusClient(null) };
  const req = new Request(`http://kule.test${path}`);
  return route === "download"
    ? handleGuarded(ctx, req, params, { permission: "call-log:export", input: downloadExportInput }, downloadExport)
    : handleGuarded(ctx, req, params, { permission: "call-log:export", input: streamExportInput }, streamExportResponse);
}

beforeAll(async () => {
  own = await ownDatabase("kule_routes");
  [a, b] = await Promise.all([makeTenantIn(own.pool), makeTenantIn(own.pool)]);
  const t0 = new Date(Date.UTC(2026, 10, 3, 9));
  await insertCalls(own.pool, [...Array.from({ length: 4 }, (_, i) => ({ tenantId: a, startedAt: new Date(t0.getTime() + i * 1000) })), { tenantId: b, startedAt: t0 }]);
  people.auditor = await actorIn("auditor");
  people.operator = await actorIn("operator");
  people.tenantA = await actorIn("tenant", a);
  people.tenantB = await actorIn("tenant", b);
}, 60_000);
afterAll(() => own?.close());

describe("route handlers are guarded like procedures", () => {
  it("answers 401 signed out and 403 to a role without the permission, saying why", async () => {
    const out = await get(null, "/api/call-log/export", {}, "stream");
    expect([out.status, (await out.json()).error]).toEqual([401, "Sign in first."]);
    const op = await get(people.operator, "/api/call-log/export", {}, "stream");
    expect(op.status).toBe(403);
    expect((await op.json()).error).toMatch(/operator.*may not call-log export/);
  });

  it("answers 400 naming the field for bad input, and writes no audit event", async () => {
    const before = await own.db.auditEvent.count();
    const res = await get(people.auditor, "/api/call-log/export?status=42&format=xml", {}, "stream");
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()).fieldErrors).sort()).toEqual(["format", "status"]);
    const bad = await get(people.auditor, "/api/exports/x;y", { id: "x;y" }, "download");
    expect([bad.status, (await bad.json()).fieldErrors.id]).toEqual([400, ["an export id"]]);
    expect(await own.db.auditEvent.count()).toBe(before);
  });

  it("streams a tenant only its own rows, whatever tenant it names", async () => {
    const res = await get(people.tenantA, `/api/call-log/export?format=jsonl&tenantId=${b}`, {}, "stream");
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l) as { tenantId: string });
    expect(lines.map((l) => l.tenantId)).toEqual([a, a, a, a]);
  });

  it("downloads a finished export for its tenant; another tenant gets 404, an unfinished one 409", async () => {
    const ctx = { db: own.db, actor: people.tenantA, ip: null };
    const queued = await startExport(ctx, { format: "csv", filter: {} }, { run: false });
    const early = await get(people.tenantA, `/api/exports/${queued.id}`, { id: queued.id }, "download");
    expect([early.status, (await early.json()).error]).toEqual([409, "The export is not finished."]);
    await runExport(own.db, queued.id);
    const other = await get(people.tenantB, `/api/exports/${queued.id}`, { id: queued.id }, "download");
    expect(other.status).toBe(404);
    const mine = await get(people.tenantA, `/api/exports/${queued.id}?part=manifest`, { id: queued.id }, "download");
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-disposition")).toBe(`attachment; filename="kule-calls-${queued.id}.manifest.json"; filename*=UTF-8''kule-calls-${queued.id}.manifest.json`);
    const manifest = await mine.json();
    expect(manifest.rows).toBe(4);
    // The platform's seal (every tenant's hourly counts) is not the tenant's to see.
    expect(manifest.seal).toBeNull();
    expect(await own.db.auditEvent.count({ where: { action: "calllog.export.download", targetId: queued.id, actorId: people.tenantA.userId } })).toBe(1);
  });
});
