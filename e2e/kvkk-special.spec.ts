import pg from "pg";
import { expect, test, type Page } from "@playwright/test";
import { signIn, unique } from "./helpers";

const database = process.env.KULE_E2E_DATABASE_URL ?? "";
const tag = unique();
/** Calls answered 418, a status no other test or the seed writes: this spec's rows alone. */
const STATUS = "418";
/** Boğaziçi Retail's API key the rows name: masked with the IP for staff without the special permission. */
let bogaziciKey = "";

test.beforeAll(async () => {
  const pool = new pg.Pool({ connectionString: database, max: 1, options: "-c TimeZone=UTC" });
  try {
    const tenant = async (slug: string) => (await pool.query(`SELECT t.id, (SELECT k.id FROM "ApiKey" k WHERE k."tenantId" = t.id ORDER BY k."createdAt" LIMIT 1) AS key FROM "Tenant" t WHERE slug = $1`, [slug])).rows[0] as { id: string; key: string | null };
    const [bogazici, anadolu] = [await tenant("bogazici-retail"), await tenant("anadolu-bank")];
    bogaziciKey = bogazici.key ?? "";
    // Three calls of Boğaziçi Retail and one of Anadolu Bank five minutes ago, the IP as rows from before encryption hold it.
    const rows = [...[1, 2, 3].map((i) => [bogazici, `198.51.100.${10 + i}`] as const), [anadolu, "198.51.100.9"] as const];
    for (const [i, [t, ip]] of rows.entries())
      await pool.query(
        `INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", region, "clientIp", "startedAt", "endedAt", status, "promptTokens", "completionTokens")
         VALUES ($1, $2, $3, 'tr-ist', $4, (now() AT TIME ZONE 'UTC') - interval '5 minutes', (now() AT TIME ZONE 'UTC') - interval '5 minutes' + interval '200 ms', ${STATUS}, 10, 0)`,
        [`e2e-special-${tag}-${i}`, t.id, t.key, ip],
      );
  } finally {
    await pool.end();
  }
});

async function searchCalls(page: Page, tenant: string | null, reason?: string) {
  await page.goto("/call-log");
  if (tenant) await page.getByLabel("Tenant").selectOption({ label: tenant });
  await page.getByLabel("Status").fill(STATUS);
  if (reason) await page.getByLabel("Why you need IP addresses").fill(reason);
  await page.getByRole("button", { name: "Search" }).click();
  return page.getByRole("table", { name: "Calls" });
}

test("an admin marks a tenant as biometric data; the auditor sees its calls masked whatever reason, the tenant sees its marking and its own IPs", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  await page.getByRole("link", { name: "Tenants" }).click();
  await page.getByRole("link", { name: "Boğaziçi Retail" }).click();
  // The id as a user copies it from the tenant's page address.
  await page.waitForURL(/\/tenants\/[^/]+$/);
  const tenantId = new URL(page.url()).pathname.split("/").pop()!;
  await page.goto("/kvkk");
  const panel = page.getByRole("region", { name: "Special categories" });
  await expect(panel.getByRole("row", { name: /Ege Health/ })).toContainText("Special category: health");
  await panel.getByLabel("Tenant id").fill(tenantId);
  await panel.getByLabel("Category", { exact: true }).selectOption("biometric");
  await panel.getByRole("button", { name: "Mark", exact: true }).click();
  const marked = panel.getByRole("row", { name: /Boğaziçi Retail/ });
  await expect(marked).toContainText("Special category: biometric");
  await expect(marked).toContainText("none recorded: Turkey only");
  // The admin holds the explicit permission: the calls' IPs as stored.
  const own = await searchCalls(page, "Boğaziçi Retail");
  await expect(own.getByRole("row")).toHaveCount(1 + 3);
  await expect(own).toContainText("198.51.100.11");
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, "auditor");
  const calls = await searchCalls(page, "Boğaziçi Retail", "breach 2026-12: which networks called");
  await expect(calls.getByRole("row")).toHaveCount(1 + 3);
  for (const row of await calls.getByRole("row").all()) if ((await row.getByRole("cell").count()) > 0) await expect(row).toContainText("masked (special category)");
  await expect(calls).not.toContainText("198.51.100.1");
  await calls.getByRole("row").nth(1).getByRole("button").first().click();
  const record = page.getByLabel("Call record");
  await expect(record).toContainText("masked (special category)");
  await expect(record).not.toContainText("198.51.100.1");
  expect(bogaziciKey).not.toBe("");
  await expect(record).not.toContainText(bogaziciKey);
  // The same reason opens another tenant's IPs: only the special category stays closed.
  const other = await searchCalls(page, "Anadolu Bank", "breach 2026-12: which networks called");
  await expect(other.getByRole("row")).toHaveCount(1 + 1);
  await expect(other).toContainText("198.51.100.9");
  // The auditor reads the markings and cannot change them.
  await page.goto("/kvkk");
  const seen = page.getByRole("region", { name: "Special categories" });
  await expect(seen.getByRole("row", { name: /Boğaziçi Retail/ })).toContainText("Special category: biometric");
  await expect(seen.getByRole("button", { name: "Mark", exact: true })).toHaveCount(0);
  await expect(seen.getByRole("button", { name: "Remove marking" })).toHaveCount(0);
  await expect(seen.getByLabel("Tenant id")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out" }).click();

  // The tenant, as controller, sees its marking and its own callers' IPs.
  await signIn(page, "otherTenant");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your data (KVKK)" }).click();
  const registration = page.getByRole("region", { name: "Registration and agreement" });
  await expect(registration).toContainText("Special category: biometric");
  await expect(registration).toContainText("kept in Turkey: no Art. 6(3) condition for a transfer abroad recorded");
  // Each legal sentence with the article it rests on beside it.
  await expect(page.getByRole("region", { name: "Your transfers abroad" }).getByRole("heading")).toHaveText("Transfers abroad KVKK Art. 9");
  const mine = await searchCalls(page, null);
  await expect(mine.getByRole("row")).toHaveCount(1 + 3);
  await expect(mine).toContainText("198.51.100.12");
  const tr = await browser.newPage({ locale: "tr-TR" });
  await signIn(tr, "otherTenant");
  await tr.goto("/my-data");
  await expect(tr.getByRole("region", { name: "Sicil kaydı ve sözleşme" })).toContainText("Özel nitelikli kişisel veri: biyometrik");
  await tr.close();
  await page.getByRole("button", { name: "Sign out" }).click();

  // Taken off again, so other tests see the tenant as seeded.
  await signIn(page, "admin");
  await page.goto("/kvkk");
  await page.getByRole("region", { name: "Special categories" }).getByRole("row", { name: /Boğaziçi Retail/ }).getByRole("button", { name: "Remove marking" }).click();
  await expect(page.getByRole("region", { name: "Special categories" }).getByRole("row", { name: /Boğaziçi Retail/ })).toHaveCount(0);
});

test.describe("in Turkish", () => {
  test.use({ locale: "tr-TR" });

  test("an auditor sees the health tenant's marking and no form to change it", async ({ page }) => {
    await signIn(page, "auditor");
    await page.goto("/kvkk");
    const panel = page.getByRole("region", { name: "Özel nitelikli kişisel veriler" });
    await expect(panel.getByRole("heading")).toHaveText("Özel nitelikli kişisel veriler KVKK m.6");
    await expect(panel.getByRole("row", { name: /Ege Health/ })).toContainText("Özel nitelikli kişisel veri: sağlık");
    await expect(panel.getByRole("button", { name: "İşaretle", exact: true })).toHaveCount(0);
  });
});
