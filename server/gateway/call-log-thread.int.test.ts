import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import pg from "pg";
import { uid } from "../test/harness.ts";
import { callLogRows, type CuttableProxy, databaseProxy, tenantWithKey } from "../test/gateway-kit.ts";
import { CallLogThread } from "./call-log-thread.ts";

const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
let proxy: CuttableProxy;
beforeAll(async () => {
  proxy = await databaseProxy();
});
afterAll(async () => {
  await proxy?.close();
  await pool.end();
});

function rowsFor(t: Awaited<ReturnType<typeof tenantWithKey>>) {
  const prefix = `clt-${uid()}-`;
  const row = callLogRows(t, prefix);
  const stored = async () => (await pool.query<{ requestId: string }>(`SELECT "requestId" FROM "CallLog" WHERE "requestId" LIKE $1`, [`${prefix}%`])).rows.map((r) => r.requestId);
  return { row, stored };
}

describe("the call log's own thread", () => {
  it("stores what the gateway pushed, and flush() returns once it is stored", async () => {
    const { row, stored } = rowsFor(await tenantWithKey());
    const thread = new CallLogThread({ databaseUrl: inject("databaseUrl"), spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-clt-")), flushMs: 3_600_000 });
    const ids = Array.from({ length: 25 }, () => {
      const r = row();
      thread.push(r);
      return r.requestId;
    });
    expect(thread.queued).toBe(25);
    await thread.flush();
    expect(thread.queued).toBe(0);
    expect((await stored()).sort()).toEqual(ids.sort());
    expect(thread.written).toBe(25);
    await thread.close();
  });

  it("keeps a process that is closing it alive until its rows are stored", async () => {
    const t = await tenantWithKey();
    const prefix = `clt-exit-${uid()}-`;
    // A process with nothing else to keep it alive: pushes rows, closes, and ends on its own.
    const script = `
      const { CallLogThread } = await import(${JSON.stringify(new URL("./call-log-thread.ts", import.meta.url).href)});
      const thread = new CallLogThread({ databaseUrl: ${JSON.stringify(inject("databaseUrl"))}, spoolDir: ${JSON.stringify(fs.mkdtempSync(path.join(os.tmpdir(), "kule-clt-")))} });
      for (const row of ${JSON.stringify(Array.from({ length: 20 }, callLogRows(t, prefix)))}) thread.push(row);
      await thread.close();
      console.log("closed");
    `;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(out.trim()).toBe("closed");
    const rows = await pool.query(`SELECT count(*)::int AS n FROM "CallLog" WHERE "requestId" LIKE $1`, [`${prefix}%`]);
    expect(rows.rows[0].n).toBe(20);
  }, 30_000);

  it("holds rows in memory with the alarm raised while the database is away and the spool's disk is full, and stores each once when the database returns", async () => {
    const { row, stored } = rowsFor(await tenantWithKey());
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-clt-"));
    const thread = new CallLogThread({ databaseUrl: viaProxy(), spoolDir, flushMs: 50, connectTimeoutMs: 300 });
    const first = Array.from({ length: 10 }, row);
    first.forEach((r) => thread.push(r));
    await thread.flush();

    // The database goes away and the spool's disk is full (/dev/full refuses every write with ENOSPC).
    proxy.sever();
    fs.symlinkSync("/dev/full", thread.spoolFile);
    const second = Array.from({ length: 30 }, row);
    second.forEach((r) => thread.push(r));
    let done = false;
    const flushed = thread.flush().then(() => (done = true));
    await until(() => thread.spoolFailing && thread.heldRows === 30);
    expect(done).toBe(false); // nothing in memory only is ever called safe
    expect(await stored()).toHaveLength(10);

    proxy.restore();
    await flushed;
    expect(thread.spoolFailing).toBe(true); // the spool never took them: the database did
    expect(thread.heldRows).toBe(0);
    fs.rmSync(thread.spoolFile);
    await thread.close();
    const ids = await stored();
    expect(ids).toHaveLength(40);
    expect(new Set(ids)).toEqual(new Set([...first, ...second].map((r) => r.requestId)));
  }, 30_000);

  it("loses nothing and counts nothing twice when its thread dies: the batches it had not confirmed go to the next one", async () => {
    const { row, stored } = rowsFor(await tenantWithKey());
    const thread = new CallLogThread({ databaseUrl: viaProxy(), spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-clt-")), flushMs: 50, connectTimeoutMs: 300 });
    const first = Array.from({ length: 10 }, row);
    first.forEach((r) => thread.push(r));
    await thread.flush();
    // The database stalls, so the next batches are in the thread's hands, unconfirmed, when it dies.
    proxy.sever();
    const second = Array.from({ length: 30 }, row);
    second.forEach((r) => thread.push(r));
    const flushed = thread.flush();
    await new Promise((r) => setTimeout(r, 200));
    await thread["worker"].terminate();
    proxy.restore();
    await flushed;
    await thread.close();
    const ids = await stored();
    expect(ids).toHaveLength(40);
    expect(new Set(ids)).toEqual(new Set([...first, ...second].map((r) => r.requestId)));
  }, 30_000);

  it("answers for every row while the journal's disk is full: held in memory, the alarm raised, stored once", async () => {
    const { row, stored } = rowsFor(await tenantWithKey());
    const thread = new CallLogThread({ databaseUrl: inject("databaseUrl"), spoolDir: fs.mkdtempSync(path.join(os.tmpdir(), "kule-clt-")), flushMs: 50, openJournalFile: () => fs.openSync("/dev/full", "a") });
    const rows = Array.from({ length: 50 }, row);
    rows.forEach((r) => thread.push(r));
    expect(thread.journalFailing).toBe(true);
    expect(thread.journalWriteErrors).toBeGreaterThan(0);
    await thread.flush();
    await thread.close();
    expect(new Set(await stored())).toEqual(new Set(rows.map((r) => r.requestId)));
  }, 30_000);
});

function viaProxy() {
  const url = new URL(inject("databaseUrl"));
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  return url.toString();
}

async function until(ok: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}
