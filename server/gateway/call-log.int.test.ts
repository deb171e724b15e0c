import { afterAll, describe, expect, inject, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { uid } from "../test/harness.ts";
import { callLogRows, tenantWithKey } from "../test/gateway-kit.ts";
import { CallLogWriter } from "./call-log-writer.ts";

const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
afterAll(() => pool.end());

describe("the call-log writer", () => {
  it("writes the rows queued when a flush starts, and leaves rows that land meanwhile to the next flush", async () => {
    const t = await tenantWithKey();
    const prefix = `cl-${uid()}-`;
    // A cadence that never fires during the test: only explicit flushes write.
    const writer = new CallLogWriter(pool, fs.mkdtempSync(path.join(os.tmpdir(), "kule-cl-")), { flushMs: 3_600_000, maxBatch: 1000 });
    const row = callLogRows(t, prefix);
    const stored = async () => Number((await pool.query(`SELECT count(*) FROM "CallLog" WHERE "requestId" LIKE $1`, [`${prefix}%`])).rows[0].count);

    for (let i = 0; i < 10; i++) writer.push(row());
    const first = writer.flush();
    for (let i = 0; i < 5; i++) writer.push(row()); // land while the first flush is under way
    expect(writer.queued).toBe(5);
    await first;
    expect(await stored()).toBe(10);
    expect(writer.queued).toBe(5);

    // A flush asked for during another one waits for it, then writes what was queued.
    const second = writer.flush();
    const third = writer.flush();
    writer.push(row());
    await Promise.all([second, third]);
    expect(await stored()).toBe(16);
    expect(writer.queued).toBe(0);
    await writer.close();
  });
});
