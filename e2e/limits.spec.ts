import { expect, test } from "@playwright/test";
import { signIn, unique } from "./helpers";

const gatewayUrl = `http://127.0.0.1:${Number(process.env.KULE_E2E_PORT ?? 3100) + 3}`;

test("a tenant gives a key its own limit, and its usage page shows the calls that limit refused", async ({ page }) => {
  test.setTimeout(120_000);
  const name = `limited-${unique()}`;
  await signIn(page, "tenant");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await page.getByRole("button", { name: "New API key" }).click();
  await page.getByLabel("Key name").fill(name);
  await page.getByLabel("Requests per minute (optional)").fill("100000");
  await page.getByRole("button", { name: "Create key" }).click();
  // Above the tenant's own limit: refused, naming the field and the ceiling.
  await expect(page.getByText("at most 6,000 requests per minute, the tenant's own limit")).toBeVisible();
  await page.getByLabel("Requests per minute (optional)").fill("2");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent())!;
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("2 req");

  // Limits are checked before a replica is chosen: the key's third request in the minute is refused
  // whether or not the endpoint has a replica ready (the first answer is not 401 once the gateway knows the key).
  const embed = () => page.request.post(`${gatewayUrl}/v1/embeddings`, { headers: { authorization: `Bearer ${secret}` }, data: { model: "embed", input: "Merhaba" } }).then((r) => r.status());
  await expect.poll(embed, { timeout: 5000, intervals: [200] }).not.toBe(401);
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push(await embed());
  expect(statuses).toContain(429);

  await page.getByRole("link", { name: "Usage & cost" }).click();
  await expect(page.getByTestId("refusals").getByRole("row", { name: /requests per minute, API key/ })).toBeVisible({ timeout: 20_000 });
});

test("an admin sets a tenant's credit limit, then offboards a tenant: its keys are revoked and it says so", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tenants" }).click();
  await page.getByRole("link", { name: "Boğaziçi Retail" }).click();
  await page.getByRole("button", { name: "Edit limits and plan" }).click();
  await page.getByLabel("Credit limit per month").fill("60000");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("credit limit TRY 60,000.00/month")).toBeVisible();

  const slug = `leaving-${unique()}`;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tenants" }).click();
  await page.getByRole("button", { name: "New tenant" }).click();
  await page.getByLabel("Name").fill(`Leaving ${slug}`);
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create tenant" }).click();
  await page.getByRole("link", { name: `Leaving ${slug}` }).click();
  await page.getByRole("button", { name: "Offboard…" }).click();
  await page.getByLabel(`Type ${slug} to confirm`).fill("wrong-slug");
  await page.getByRole("button", { name: "Offboard tenant" }).click();
  await expect(page.getByText(`type the tenant's slug, ${slug}, to confirm`)).toBeVisible();
  await page.getByLabel(`Type ${slug} to confirm`).fill(slug);
  await page.getByRole("button", { name: "Offboard tenant" }).click();
  await expect(page.getByText(/offboarded: 0 key\(s\) revoked; call log kept until \d{1,2} [A-Z][a-z]{2,3} \d{4}/)).toBeVisible();
  await expect(page.getByText("its keys are revoked and its users cannot sign in")).toBeVisible();
  await expect(page.getByRole("button", { name: "Offboard…" })).toHaveCount(0);
});
