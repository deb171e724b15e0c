import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { gatewayUrl, signIn, trpcMutation, trpcQuery } from "./helpers";
import { readFocusFile } from "../server/finops/focus-file";
import { focusViolations } from "../server/finops/focus-spec";

/** The embeddings endpoint with a ready replica (deployed through the API if it has none). */
async function readyEmbeddings(page: Page) {
  await signIn(page, "operator");
  type Ep = { id: string; slug: string; revision: number; versions: { modelVersionId: string; weight: number; replicas: { state: string }[] }[] };
  const list = await trpcQuery<Ep[]>(page, "endpoint.list");
  const embed = list.find((e) => e.slug === "embed")!;
  const live = embed.versions.find((v) => v.weight > 0)!;
  if (!embed.versions.some((v) => v.weight > 0 && v.replicas.some((r) => r.state === "ready"))) {
    await trpcMutation(page, "rollout.deploy", { endpointId: embed.id, modelVersionId: live.modelVersionId, replicas: 1, expectedRevision: embed.revision });
  }
  await expect
    .poll(async () => (await trpcQuery<Ep>(page, "endpoint.get", { id: embed.id })).versions.some((v) => v.weight > 0 && v.replicas.some((r) => r.state === "ready")), { timeout: 30_000 })
    .toBe(true);
  await page.context().clearCookies();
}

test("a tenant sees its usage chart and cost table, and downloads its invoice CSV and its FOCUS file", async ({ page }) => {
  test.setTimeout(180_000);
  await readyEmbeddings(page);
  await signIn(page, "tenant");
  const { secret } = await trpcMutation<{ secret: string }>(page, "apiKey.create", { name: `e2e usage ${Date.now()}` });
  const embed = (i: number) => page.request.post(`${gatewayUrl}/v1/embeddings`, { headers: { authorization: `Bearer ${secret}` }, data: { model: "embed", input: `Çağrı ${i}: İstanbul'da şöyle bir gün` } });
  // The gateway learns of the new key within a second (LISTEN/NOTIFY).
  await expect.poll(async () => (await embed(0)).status(), { timeout: 5000, intervals: [200] }).toBe(200);
  for (let i = 1; i < 30; i++) expect((await embed(i)).status()).toBe(200);

  await page.getByRole("link", { name: "Usage & cost" }).click();
  await expect(page.getByRole("heading", { name: "Usage and cost" })).toBeVisible();
  // The roll-up runs every 15 s in the background and the page refetches every 15 s by itself:
  // the calls show up without a reload. (Wait for the Embeddings row itself: other tests call
  // other endpoints as this tenant.)
  const row = page.getByTestId("cost-table").getByRole("row", { name: /Embeddings/ });
  await expect(row).toHaveCount(1, { timeout: 90_000 });
  expect(Number((await page.getByTestId("total-requests").innerText()).replace(/\D/g, ""))).toBeGreaterThanOrEqual(30);
  const chart = page.getByRole("figure", { name: "Requests by endpoint" });
  await expect(chart.getByRole("application")).toBeVisible();
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(row).toContainText("TRY");
  await expect(row).toContainText(/met|missed/);
  await expect(page.getByTestId("budget")).toContainText("TRY 25,000.00");

  // Its share of the platform's cost part by part, with the rule named: its own column only, no whole bill.
  const parts = page.getByTestId("cost-parts");
  // The day's roll-up follows the hour's within the usage worker's next passes (every 15 s), the panel every 30 s.
  await expect(parts.getByRole("row", { name: /GPU time/ })).toContainText("as measured", { timeout: 90_000 });
  await expect(parts.getByRole("row", { name: /Energy/ })).toBeVisible();
  await expect(parts.getByRole("columnheader", { name: "Anadolu Bank" })).toBeVisible();
  await expect(parts.getByRole("columnheader", { name: "Whole bill" })).toHaveCount(0);
  await expect(parts.getByRole("columnheader", { name: "Platform (unused)" })).toHaveCount(0);

  const month = new Date().toISOString().slice(0, 7);
  await page.getByLabel("Invoice month").selectOption(month);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`kule-invoice-anadolu-bank-${month}.csv`);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv).toContain("Anadolu Bank");
  expect(csv).toMatch(/Embeddings,bge-m3-embedding,\d+,\d+,0,\d+\.\d{2}\r\n/);
  expect(csv).toMatch(/Total,,,,,\d+\.\d{2}\r\n$/);

  // The month as a FOCUS 1.2 dataset, its own rows only, conforming to the spec's column rules.
  await page.getByLabel("First billing month").selectOption(month);
  await page.getByLabel("Last billing month").selectOption(month);
  const [focus] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download FOCUS file" }).click()]);
  expect(focus.suggestedFilename()).toBe(`kule-focus-anadolu-bank-${month}.csv`);
  const { header, rows } = readFocusFile(fs.readFileSync((await focus.path())!, "utf8"), "csv");
  expect(focusViolations(header, rows)).toEqual([]);
  expect(new Set(rows.map((r) => r.BillingAccountName))).toEqual(new Set(["Anadolu Bank"]));
  expect(rows.filter((r) => r.ServiceName === "Embeddings").map((r) => r.PricingUnit)).toContain("Tokens");
});

test("an admin sees the month's whole cost part by part: the bill, each tenant's share and the platform's", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/costs");
  const parts = page.getByTestId("cost-parts");
  await expect(parts.getByRole("heading", { name: "Cost part by part" })).toBeVisible();
  await expect(parts.getByRole("columnheader", { name: "Whole bill" })).toBeVisible({ timeout: 30_000 });
  await expect(parts.getByRole("columnheader", { name: "Platform (unused)" })).toBeVisible();
  // The seeded hardware rates cost the fleet's hours from the first minute: GPU time is never 0.
  const gpu = parts.getByRole("row", { name: /GPU time/ });
  await expect(gpu.getByRole("cell").nth(2)).not.toHaveText(/^\D*0[.,]00$/);
  // The demo sets no software amount: the panel says which costs are missing, and the admin sets it.
  await expect(parts).toContainText("No price set yet for:");
  const overheads = page.getByTestId("overheads");
  await overheads.getByLabel("Cost").selectOption("software");
  await overheads.getByLabel("TRY a month").fill("31000");
  await overheads.getByLabel("Spread by").selectOption("even");
  await overheads.getByRole("button", { name: "Set from this hour" }).click();
  await expect(overheads).toContainText("31,000 TRY a month, shared evenly");
  // From this hour on: the month to date carries its share, every kuruş of it on the tenants that called.
  const software = parts.getByRole("row", { name: /Software/ });
  await expect(software).toContainText("evenly");
  await expect(software.getByRole("cell").nth(2)).not.toHaveText(/^\D*0[.,]00$/);
  await expect(software.getByRole("cell").last()).toHaveText(/^\D*0[.,]00$/);
});
