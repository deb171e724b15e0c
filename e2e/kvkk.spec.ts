import { expect, test } from "@playwright/test";
import { signIn, unique } from "./helpers";

test("an admin records a transfer safeguard; the auditor sees it, its notice deadline and the printable policy, and can change nothing", async ({ page }) => {
  const importer = `Rechen GmbH ${unique()}, Frankfurt`;
  await signIn(page, "admin");
  await page.goto("/kvkk");
  const panel = page.getByRole("region", { name: "Transfer safeguards" });
  await panel.getByLabel("Tenant").selectOption({ label: "bogazici-retail" });
  await panel.getByLabel("Country (region prefix)").fill("de");
  await panel.getByLabel("Importer (name, address)").fill(importer);
  await panel.getByLabel("Reference").fill("SCC-E2E");
  await panel.getByLabel("Signed / approved on").fill(new Date().toISOString().slice(0, 10));
  await panel.getByRole("button", { name: "Record safeguard" }).click();
  await expect(panel.getByRole("row", { name: new RegExp(importer) })).toContainText("Standard contract (Art. 9(4)(c))");
  // A tenant whose contract keeps it in Turkey is refused, and the form says why beside the field.
  await panel.getByLabel("Tenant").selectOption({ label: "anadolu-bank" });
  await panel.getByLabel("Country (region prefix)").fill("de");
  await panel.getByLabel("Importer (name, address)").fill(importer);
  await panel.getByLabel("Reference").fill("SCC-E2E-2");
  await panel.getByLabel("Signed / approved on").fill(new Date().toISOString().slice(0, 10));
  await panel.getByRole("button", { name: "Record safeguard" }).click();
  await expect(panel.getByText(/contract keeps its data in Turkey/)).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, "auditor");
  await page.goto("/kvkk");
  const seen = page.getByRole("region", { name: "Transfer safeguards" });
  await expect(seen.getByRole("row", { name: new RegExp(importer) })).toContainText(/due by/);
  await expect(seen.getByRole("button", { name: "Record safeguard" })).toHaveCount(0);
  await expect(seen.getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Breaches" })).toContainText("72 hours");

  await page.getByRole("link", { name: "Storage and destruction policy" }).click();
  const policy = page.getByRole("table", { name: "Policy entries" });
  await expect(policy.getByRole("row", { name: /audit_ip/ })).toContainText("730 days");
  await expect(policy.getByRole("row", { name: /exports/ })).toContainText("Art. 5(2)(c)");
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Place hold" })).toHaveCount(0);
});

test("a tenant records an application with its intake, sees the 30-day clock and answers it; the other tenant never sees it", async ({ page }) => {
  const reference = `KEP-${unique()}`;
  await signIn(page, "tenant");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Applications" }).click();
  const form = page.getByRole("region", { name: "New application" });
  await form.getByLabel("The user identifier you send for this person").fill(`ayse-${unique()}@example.com.tr`);
  await form.getByLabel("Right (Art. 11)").selectOption("request_information");
  await form.getByLabel("Identity checked how").fill("KEP address matches the customer record");
  await form.getByLabel("Reference (optional)").fill(reference);
  await form.getByRole("button", { name: "Record application" }).click();
  const row = page.getByRole("row", { name: new RegExp(reference) });
  await expect(row).toContainText(/(29|30) days left/);
  await expect(row).toContainText("(b) request information on the processing");
  page.once("dialog", (d) => void d.accept("We process only call records of your API use; no prompts are stored."));
  await row.getByRole("button", { name: "Answer" }).click();
  await expect(row).toContainText("answered");
  await expect(row).toContainText("no prompts are stored");
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, "otherTenant");
  await page.goto("/applications");
  await expect(page.getByRole("region", { name: "Applications" })).toBeVisible();
  await expect(page.getByText(reference)).toHaveCount(0);
});

test("a tenant sees, as data controller, that its calls stay in Turkey and which staff read its call log", async ({ page }) => {
  await signIn(page, "auditor");
  await page.goto("/call-log");
  // The search is logged once its answer is in.
  await expect(page.getByRole("table").or(page.getByText("No calls match")).first()).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, "tenant");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Your data (KVKK)" }).click();
  await expect(page.getByRole("region", { name: "Your transfers abroad" })).toContainText("none of your calls may leave Turkey");
  await expect(page.getByRole("region", { name: "Staff access to your data" })).toContainText("auditor@kule.local (auditor)");
});
