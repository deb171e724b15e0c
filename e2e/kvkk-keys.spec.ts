import pg from "pg";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { signIn, unique } from "./helpers";
import { E2E_SUBJECT_KEYS } from "./subject-keys";
import { encryptIp, ipIndexWith, keyVersion } from "../server/call-log/keys/keyring";

const database = process.env.KULE_E2E_DATABASE_URL ?? "";
const ROWS = 4;

test.beforeAll(async () => {
  // Calls of Anadolu Bank ten minutes ago, as the gateway writes them under key v1 (the current one at start).
  const v1 = keyVersion("standard", "v1", E2E_SUBJECT_KEYS.v1);
  const pool = new pg.Pool({ connectionString: database, max: 1, options: "-c TimeZone=UTC" });
  try {
    const tenant = (await pool.query(`SELECT id FROM "Tenant" WHERE slug = 'anadolu-bank'`)).rows[0].id as string;
    const at = new Date(Date.now() - 10 * 60_000);
    const tag = unique();
    for (let i = 1; i <= ROWS; i++) {
      const id = `e2e-keys-${tag}-${i}`;
      const ip = `203.0.113.${i}`;
      await pool.query(
        `INSERT INTO "CallLog" ("requestId", "tenantId", region, "clientIpEnc", "clientIpHash", "ipKeyVersion", "startedAt", "endedAt", status, "promptTokens", "completionTokens")
         VALUES ($1, $2, 'tr-ist', $3, $4, 'v1', $5, $5::timestamp + interval '300 ms', 200, 10, 20)`,
        [id, tenant, encryptIp(v1, ip, id), ipIndexWith(v1, ip), at.toISOString().replace("Z", "")],
      );
    }
  } finally {
    await pool.end();
  }
});

const version = (table: Locator, page: Page, v: string) => table.getByRole("row").filter({ has: page.getByRole("cell", { name: v, exact: true }) });
/** The "N IP(s)" a version's row shows. */
const ipCount = async (row: Locator) => Number(/([\d,.]+) IP\(s\)/.exec((await row.textContent()) ?? "")![1]!.replace(/[,.]/g, ""));

test("an admin makes the new key current, is refused retiring the old one while IPs use it, re-keys them and then retires it", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/kvkk");
  const panel = page.getByRole("region", { name: "Keys at rest" });
  const versions = panel.getByRole("table", { name: "Key versions" });
  const v1 = version(versions, page, "v1");
  const v2 = version(versions, page, "v2");
  await expect(v1).toContainText("current since");
  await expect(v2).toContainText("held, not current");
  const before = await ipCount(v1);
  expect(before).toBeGreaterThanOrEqual(ROWS);

  await v2.getByRole("button", { name: "Make current" }).click();
  await expect(v2).toContainText("current since");
  await expect(v1).toContainText("held, not current");

  // The old version still covers the IPs written under it: refused, and the panel says why.
  await v1.getByRole("button", { name: "Retire" }).click();
  await expect(panel.getByText(`Key version v1 still covers ${before} client IP(s) and 0 subject hash(es)`)).toBeVisible();
  await expect(v1).toContainText("held, not current");

  await panel.getByRole("button", { name: "Re-key client IPs now" }).click();
  await expect(panel.getByRole("status")).toContainText(/IP\(s\) re-keyed, [\d,.]+ clear IP\(s\) encrypted; 0 left under older versions/);
  await expect(v1).toContainText("0 IP(s), 0 subject hash(es)");
  expect(await ipCount(v2)).toBeGreaterThanOrEqual(before);

  await v1.getByRole("button", { name: "Retire" }).click();
  await expect(v1).toContainText("retired on");
  await expect(v1.getByRole("button")).toHaveCount(0);
  await expect(panel.getByText(/still covers/)).toHaveCount(0);

  // The gateway reloads on the change and proves it holds v2 (its fingerprint) before logging under it.
  const gateways = panel.getByRole("table", { name: "Gateways and their keys" });
  const fingerprint = (await v2.getByRole("cell").nth(2).textContent())!.trim().slice(0, 8);
  await expect(async () => {
    await page.reload();
    const row = gateways.getByRole("row").nth(1);
    await expect(row).toContainText(`v2 (${fingerprint})`, { timeout: 1_000 });
    await expect(row.getByRole("cell").nth(2)).toContainText("v2", { timeout: 1_000 });
    await expect(row).toContainText("logs under the current keys", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(panel.getByRole("alert")).toHaveCount(0);
});

test.describe("in Turkish", () => {
  test.use({ locale: "tr-TR" });

  test("an auditor reads the key versions and the gateways' state, and has no button to change them", async ({ page }) => {
    await signIn(page, "auditor");
    await page.goto("/kvkk");
    const panel = page.getByRole("region", { name: "Saklanan verinin anahtarları" });
    // The article the measures rest on, beside the title in the reader's language.
    await expect(panel.getByRole("heading")).toHaveText("Saklanan verinin anahtarları KVKK m.12/1");
    const versions = panel.getByRole("table", { name: "Anahtar sürümleri" });
    await expect(version(versions, page, "s1")).toContainText("özel nitelikli");
    await expect(versions.getByRole("row").filter({ hasText: "tarihinden beri geçerli" }).first()).toBeVisible();
    await expect(panel.getByRole("table", { name: "Ağ geçitleri ve anahtarları" })).toContainText("geçerli anahtarlarla kaydediyor");
    for (const name of ["Geçerli yap", "Emekliye ayır", "İstemci IP adreslerini şimdi yeniden anahtarla"]) await expect(panel.getByRole("button", { name })).toHaveCount(0);
  });
});
