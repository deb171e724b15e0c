import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../test/own-db.ts";
import { insertCalls, makeTenantIn } from "../audit/test/fixtures.ts";

// Its own database: any other file's change to a tenant would notify the channel this listens to.
let own: Awaited<ReturnType<typeof ownDatabase>>;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  own = await ownDatabase("kule_notify");
  listener = new pg.Client({ connectionString: own.url });
  await listener.connect();
  listener.on("notification", (n) => heard.push(n.payload ?? ""));
  await listener.query("LISTEN kule_config");
}, 120_000);
afterAll(async () => {
  await listener?.end();
  await own?.close();
});

/** What the gateways would hear from `run`: notifications are delivered at commit, then a beat for the socket. */
async function notified(run: () => Promise<unknown>): Promise<string[]> {
  heard.length = 0;
  await run();
  await new Promise((r) => setTimeout(r, 300));
  return [...heard];
}

describe("the gateways' reload signal", () => {
  it("is not sent for call-log rows that block no tenant, and is sent once for a change to tenants", async () => {
    const a = await makeTenantIn(own.pool);
    const b = await makeTenantIn(own.pool);
    await notified(async () => {}); // the two tenants' own creation
    // Each batch runs the budget trigger's UPDATE "Tenant", which matches no row here.
    expect(await notified(() => insertCalls(own.pool, Array.from({ length: 20 }, () => ({ tenantId: a, startedAt: new Date() }))))).toEqual([]);
    expect(await notified(() => own.pool.query(`UPDATE "Tenant" SET "rpmLimit" = 60 WHERE id = 'nobody'`))).toEqual([]);
    // Two tenants changed in one statement: one reload, not two.
    expect(await notified(() => own.pool.query(`UPDATE "Tenant" SET "rpmLimit" = 60 WHERE id IN ($1, $2)`, [a, b]))).toEqual(["Tenant"]);
  });
});
