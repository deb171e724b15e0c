import fs from "node:fs";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { sealAll } from "../server/audit/seal/seal";

const database = process.env.KULE_E2E_DATABASE_URL ?? "";
let pool: pg.Pool;
const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 3_600_000;
const hourIso = new Date(hour).toISOString();

test.beforeAll(async () => {
  pool = new pg.Pool({ connectionString: database, max: 2, options: "-c TimeZone=UTC" });
  const t = (await pool.query(`SELECT id FROM "Tenant" WHERE slug = 'anadolu-bank'`)).rows[0].id as string;
  // Calls of Anadolu Bank five hours ago, as the gateway writes them; every seventh one failed.
  await pool.query(
    `INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", replica, region, "clientIp", "startedAt", "endedAt", "ttftMs", status, "errorClass", "promptTokens", "completionTokens")
     SELECT 'e2e-audit-' || g, $1, NULL, NULL, NULL, 'rep-1', 'tr-ist', '198.51.100.' || g, $2::timestamptz AT TIME ZONE 'UTC' + g * interval '20 s', $2::timestamptz AT TIME ZONE 'UTC' + g * interval '20 s' + interval '400 ms',
            30, CASE WHEN g % 7 = 0 THEN 503 ELSE 200 END, CASE WHEN g % 7 = 0 THEN 'upstream_error' END, 50 + g, 100 + g
       FROM generate_series(1, 60) g`,
    [t, hourIso],
  );
  await sealAll(pool, { graceMinutes: 60 });
});
test.afterAll(() => pool?.end());

test("an auditor filters the call log, exports CSV, and verifies the chain, which then names a tampered hour", async ({ page }) => {
  await signIn(page, "auditor");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Call log" }).click();
  await page.getByLabel("Tenant").selectOption({ label: "Anadolu Bank" });
  await page.getByLabel("Status").fill("503");
  await page.getByRole("button", { name: "Search" }).click();
  const calls = page.getByRole("table", { name: "Calls" });
  await expect(calls.getByRole("row")).toHaveCount(1 + 8); // the header, then the 8 failed calls
  await calls.getByRole("row").nth(1).click();
  await expect(page.getByLabel("Call record")).toContainText("upstream_error");

  await page.getByRole("button", { name: "Export CSV" }).click();
  const link = page.getByRole("link", { name: "Download CSV" }).first();
  await expect(link).toBeVisible({ timeout: 20_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const text = fs.readFileSync((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFFrequestId,tenantId,")).toBe(true);
  expect(text.trim().split("\r\n")).toHaveLength(1 + 8);

  await page.getByRole("button", { name: "Verify chain" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Chain intact" })).toBeVisible({ timeout: 20_000 });

  // Someone with database access lowers a call's tokens: the check names that hour.
  await pool.query(`UPDATE "CallLog" SET "completionTokens" = 1 WHERE "requestId" = 'e2e-audit-3'`);
  try {
    await page.getByRole("button", { name: "Verify chain" }).click();
    await expect(page.getByRole("status").filter({ hasText: `First bad segment: call_log ${hourIso}` })).toBeVisible({ timeout: 20_000 });
  } finally {
    await pool.query(`UPDATE "CallLog" SET "completionTokens" = 103 WHERE "requestId" = 'e2e-audit-3'`);
  }

  // The auditor's own search, export and checks are in the audit log.
  const actions = (await pool.query(`SELECT action FROM "AuditEvent" WHERE "actorEmail" = 'auditor@kule.local'`)).rows.map((r) => r.action);
  expect(actions).toEqual(expect.arrayContaining(["calllog.search", "calllog.read", "calllog.export", "calllog.export.download", "audit.verify"]));
});
