import { expect, test, type Page } from "@playwright/test";
import { LOGINS, signIn } from "./helpers";
import { ROLE_PAGES } from "./pages";

/** Opens a page and waits until its queries have answered (no "Loading …" left). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main :is(h1, h2)").first()).toBeVisible();
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
}

test.describe("in a browser set to Turkish", () => {
  test.use({ locale: "tr-TR" });

  test("the sign-in page and the shell speak Turkish, and no page shows an untranslated key", async ({ page }) => {
    test.setTimeout(240_000); // the admin's 16 pages
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "tr");
    await expect(page).toHaveTitle("Giriş · Kule");
    await page.getByLabel("E-posta").fill(LOGINS.admin.email);
    await page.getByLabel("Parola").fill("yanlış parola");
    await page.getByRole("button", { name: "Giriş yap" }).click();
    await expect(page.getByTestId("login-error")).toHaveText("E-posta ya da parola yanlış.");
    await page.getByLabel("Parola").fill(LOGINS.admin.password);
    await page.getByRole("button", { name: "Giriş yap" }).click();
    const nav = page.getByRole("navigation", { name: "Ana menü" });
    await expect(nav.getByRole("link").first()).toHaveText("Genel bakış");
    await expect(nav.getByRole("link", { name: "Çağrı kaydı" })).toBeVisible();
    for (const path of ROLE_PAGES.admin) {
      await open(page, path);
      // A message missing in Turkish would show as ⟦namespace.key⟧ (server/shared/i18n/messages.ts).
      expect(await page.locator("body").innerText(), path).not.toContain("⟦");
    }
    // Text the server seeds, in Turkish too: the storage-and-destruction policy no one has edited yet.
    await open(page, "/kvkk/policy");
    const policy = page.getByRole("table", { name: "Politika kayıtları" });
    await expect(policy.getByRole("row", { name: /subject_requests/ })).toContainText("İlgili kişi başvuruları");
    await expect(policy.getByRole("row", { name: /destruction_records/ })).toContainText("Yok Edilmesi veya Anonim Hale Getirilmesi");
  });

  test("a MIG preview says why it is refused and what capacity is missing in Turkish, its sizes written the Turkish way", async ({ page }) => {
    await signIn(page, "operator");
    await open(page, "/cluster");
    const nodes = page.getByRole("region", { name: "Düğümler" });
    await nodes.getByLabel("Düğümlerde ara").fill("gpu-llm-04");
    await nodes.getByRole("button", { name: "gpu-llm-04", exact: true }).click();
    const card = page.getByRole("group", { name: "gpu-llm-04 düğümünün GPU 6" });
    await card.getByRole("button", { name: "MIG düzenini düzenle" }).click();
    // One more instance where the layout has no room: NVIDIA's rules refuse it, and the preview says so.
    await card.getByRole("button", { name: "Örnek ekle" }).click();
    await card.getByRole("button", { name: "Replikalarının taşınmasını önizle…" }).click();
    const preview = card.getByRole("region", { name: "MIG değişikliği önizlemesi" });
    await expect(preview.getByRole("alert")).toContainText(/Reddedildi: gpu-llm-04 GPU 6: .*çakışıyor/);
    await expect(preview).toContainText(/Bu arada eksik kapasite: 1 GPU, \d+,\d GiB, yeniden bölümlenirken hizmet dışı/);
  });

  test("a tenant's money and dates are written the Turkish way", async ({ page }) => {
    await signIn(page, "tenant");
    await open(page, "/usage");
    await expect(page.locator("main")).toContainText(/\d{1,3}(\.\d{3})*,\d{2} ₺/);
    for (const path of ROLE_PAGES.tenant) {
      await open(page, path);
      expect(await page.locator("body").innerText(), path).not.toContain("⟦");
    }
  });
});

test("the language switch changes the page at once and the choice follows the user to another browser", async ({ page, browser }) => {
  await signIn(page, "auditor");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByRole("group", { name: "Language" }).getByRole("button", { name: "Türkçe" }).click();
  await expect(page.getByRole("navigation", { name: "Ana menü" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "tr");
  // A fresh browser in English: after sign-in the user's own setting wins over the browser's.
  const other = await browser.newPage({ locale: "en-US" });
  await signIn(other, "auditor");
  await expect(other.getByRole("navigation", { name: "Ana menü" })).toBeVisible();
  await other.getByRole("group", { name: "Dil" }).getByRole("button", { name: "English" }).click();
  await expect(other.getByRole("navigation", { name: "Main" })).toBeVisible();
  await other.close();
});
