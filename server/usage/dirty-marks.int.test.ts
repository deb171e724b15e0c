import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { ownDatabase } from "../test/own-db.ts";
import { rollupDirtyHours, rollupHour } from "./rollup.ts";
import { refreshDirtyDays } from "./daily.ts";

// Its own database: the roll-up passes of files running beside it would take its marks.
let own: Awaited<ReturnType<typeof ownDatabase>>;
beforeAll(async () => {
  own = await ownDatabase("kule_usage_marks");
}, 60_000);
afterAll(async () => own?.close());

describe("dirty marks", () => {
  it("keep an hour marked when rows land during its roll-up, and keep its day marked until the daily roll-up has run", async () => {
    const db = own.db;
    const tenant = await db.tenant.create({ data: { name: "Marks", slug: "marks" } });
    const hour = new Date(Date.UTC(2027, 5, 1, 10));
    const day = new Date(Date.UTC(2027, 5, 1));
    const call = (minute: number) =>
      db.$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status, "promptTokens", "completionTokens")
        VALUES (${randomUUID()}, ${tenant.id}, ${new Date(hour.getTime() + minute * 60_000)}, ${new Date(hour.getTime() + minute * 60_000 + 100)}, 200, 10, 5)`;
    const marked = async () => ({
      hours: (await db.usageDirtyHour.findMany()).map((h) => h.hour.toISOString()),
      days: (await db.usageDirtyDay.findMany()).map((d) => d.day.toISOString()),
    });

    await call(1);
    const { generation } = await db.usageDirtyHour.findUniqueOrThrow({ where: { hour } });
    await call(2); // a flush landing while a roll-up works on the hour it read
    expect(await rollupHour(db, hour, generation)).toBe(1);
    expect(await marked()).toEqual({ hours: [hour.toISOString()], days: [day.toISOString()] });

    // The next pass sees both calls and unmarks the hour; a pass that stops there (a crash, a
    // failed daily roll-up) leaves the day marked, so the next one still brings it up to date.
    expect(await rollupDirtyHours(db)).toMatchObject({ hours: 1 });
    expect((await db.usageHour.findFirstOrThrow({ where: { hour } })).requests).toBe(2);
    expect(await marked()).toEqual({ hours: [], days: [day.toISOString()] });
    expect(await db.usageDay.count()).toBe(0);

    expect(await refreshDirtyDays(db)).toBe(1);
    expect((await db.usageDay.findFirstOrThrow({ where: { day } })).requests).toBe(2);
    expect(await marked()).toEqual({ hours: [], days: [] });
  });

  it("gives an hour to one process at a time: another process's roll-up of it is skipped, not doubled", async () => {
    const db = own.db;
    const hour = new Date(Date.UTC(2027, 5, 2, 10));
    const tenant = await db.tenant.create({ data: { name: "Marks 2", slug: "marks-2" } });
    await db.$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status) VALUES (${randomUUID()}, ${tenant.id}, ${hour}, ${hour}, 200)`;
    const { generation } = await db.usageDirtyHour.findUniqueOrThrow({ where: { hour } });
    const other = await own.pool.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(hashtext('kule_usage_hour'), (extract(epoch FROM $1::timestamp) / 3600)::int)", [hour.toISOString()]);
      expect(await rollupHour(db, hour, generation)).toBeNull();
      expect(await db.usageDirtyHour.count({ where: { hour } })).toBe(1);
    } finally {
      await other.query("ROLLBACK");
      other.release();
    }
    expect(await rollupHour(db, hour, generation)).toBe(1);
    expect(await db.usageDirtyHour.count({ where: { hour } })).toBe(0);
  });
});
