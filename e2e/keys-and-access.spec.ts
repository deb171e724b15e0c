import pg from "pg";
import { expect, test } from "@playwright/test";
import { signIn, unique } from "./helpers";

test("a tenant creates an API key, sees its secret once and never again", async ({ page }) => {
  const name = `svc-${unique()}`;
  await signIn(page, "tenant");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await page.getByRole("button", { name: "New API key" }).click();
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent())!;
  expect(secret).toMatch(/^kule_[A-Za-z0-9]{40}$/);
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(secret.slice(0, 13));
  await expect(row).toContainText("active");

  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();
  await expect(page.getByTestId("new-key-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  page.once("dialog", (d) => void d.accept());
  await page.getByRole("row", { name: new RegExp(name) }).getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("revoked");
});

test("a tenant user cannot open admin pages or another tenant's page", async ({ page }) => {
  // Find the other tenant's id as an admin first.
  await signIn(page, "admin");
  await page.getByRole("link", { name: "Tenants" }).click();
  await page.getByRole("link", { name: "Boğaziçi Retail" }).click();
  const otherTenantUrl = page.url();
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, "tenant");
  for (const path of ["/users", "/models", "/audit", "/tenants"]) {
    await page.goto(path);
    await expect(page.getByRole("region", { name: "Not allowed" })).toBeVisible();
  }
  await page.goto(otherTenantUrl);
  await expect(page.getByRole("region", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByText("Boğaziçi Retail")).toHaveCount(0);
});

test("a forged X-Forwarded-For does not choose the address written into the audit log", async ({ page }) => {
  const name = `forged-${unique()}`;
  await page.setExtraHTTPHeaders({ "x-forwarded-for": "6.6.6.6", "x-kule-client-ip": "7.7.7.7" });
  await signIn(page, "tenant");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await page.getByRole("button", { name: "New API key" }).click();
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key-secret")).toBeVisible();
  const pool = new pg.Pool({ connectionString: process.env.KULE_E2E_DATABASE_URL, max: 1 });
  try {
    const { rows } = await pool.query(`SELECT ip FROM "AuditEvent" WHERE action = 'apikey.create' AND after->>'name' = $1`, [name]);
    // No proxy is trusted here: the address is the browser's socket peer, not what it claimed.
    expect(rows).toEqual([{ ip: "127.0.0.1" }]);
  } finally {
    await pool.end();
  }
});
