import fs from "node:fs";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../../audit/test/fixtures.ts";
import type { Actor } from "../../auth/actor.ts";
import { pgPool } from "../../db/pg-pool.ts";
import { EXPORT_LIMITS } from "../../db/copy-file.ts";
import { exportFile, getExport, runExport, startExport } from "./jobs.ts";
import { streamExportResponse } from "./direct.ts";
import { streamExport } from "./stream.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let tenant: string;
let auditor: Actor;

beforeAll(async () => {
  own = await ownDatabase("kule_export_limits");
  tenant = await makeTenantIn(own.pool);
  const t0 = Date.UTC(2026, 10, 3, 9);
  await insertCalls(own.pool, Array.from({ length: 10 }, (_, i) => ({ tenantId: tenant, startedAt: new Date(t0 + i * 1000) })));
  const u = await own.db.user.create({ data: { email: `auditor-${tenant}@t.local`, name: "auditor", passwordHash: "x", membership: { create: { role: "auditor", tenantId: null } } } });
  auditor = { userId: u.id, email: u.email, name: u.name, role: "auditor", tenantId: null };
}, 60_000);
afterAll(() => own?.close());

const ctx = () => ({ db: own.db, actor: auditor, ip: "203.0.113.9" });

describe("export size and time limits", () => {
  it("fails an export job that would hold more rows than one file may, saying how to narrow it, and leaves no file", async () => {
    const job = await startExport(ctx(), { format: "csv", filter: { tenantId: tenant } }, { run: false });
    await expect(runExport(own.db, job.id, { ...EXPORT_LIMITS, maxRows: 9 })).rejects.toMatchObject({ kind: "too_large" });
    const done = await getExport(ctx(), { id: job.id });
    expect([done.state, done.error]).toEqual(["failed", "More than 9 rows match, the most one export file holds: narrow the time range or the filter."]);
    expect(fs.existsSync(exportFile(job.id, "csv", "data"))).toBe(false);
    expect(fs.existsSync(`${exportFile(job.id, "csv", "data")}.part`)).toBe(false);
    // At the limit exactly, the file is written.
    const fits = await startExport(ctx(), { format: "csv", filter: { tenantId: tenant } }, { run: false });
    await runExport(own.db, fits.id, { ...EXPORT_LIMITS, maxRows: 10 });
    expect((await getExport(ctx(), { id: fits.id })).rowsDone).toBe(10);
  });

  it("refuses a streamed export past its row limit before the first byte (too large, unaudited), pointing to an export job", async () => {
    const events = await own.db.auditEvent.count({ where: { action: "calllog.export" } });
    await expect(streamExportResponse(ctx(), { format: "csv", tenantId: tenant }, 9)).rejects.toMatchObject({ kind: "too_large", message: expect.stringMatching(/^More than 9 rows match, the most a streamed export holds: use Export CSV on the call log page/) });
    expect(await own.db.auditEvent.count({ where: { action: "calllog.export" } })).toBe(events);
    const res = await streamExportResponse(ctx(), { format: "jsonl", tenantId: tenant }, 10);
    expect((await res.text()).trim().split("\n")).toHaveLength(10);
  });

  it("stops a copy at the row limit even when rows arrive after the count", async () => {
    const sink = new Writable({ write: (_c, _e, done) => done() });
    await expect(streamExport(pgPool(own.db), { tenantId: tenant }, "jsonl", sink, { limits: { maxRows: 4 } })).rejects.toMatchObject({ kind: "too_large" });
  });

  it("stops an export whose reader stops reading at its time limit, and frees its database connection", async () => {
    const pool = pgPool(own.db);
    // A download whose client went quiet: it takes nothing and never says it is done.
    const stalled = new Writable({ highWaterMark: 1, write: () => {} });
    const t0 = performance.now();
    await expect(streamExport(pool, { tenantId: tenant }, "csv", stalled, { limits: { timeoutMs: 300 } })).rejects.toMatchObject({
      kind: "timeout",
      message: "The export reached its time limit (1 min) and was stopped: narrow the time range or the filter.",
    });
    expect(performance.now() - t0).toBeLessThan(5_000);
    await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 5_000 }).toBe(0);
    // The pool's next export runs as usual, with no time limit left on its session.
    const r = await streamExport(pool, { tenantId: tenant }, "jsonl", new Writable({ write: (_c, _e, done) => done() }));
    expect(r.rows).toBe(10);
    const timeout = await pool.query<{ statement_timeout: string }>("SHOW statement_timeout");
    expect(timeout.rows[0]!.statement_timeout).toBe("0");
  }, 15_000);
});
