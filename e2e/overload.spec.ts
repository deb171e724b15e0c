import { expect, test, type Page } from "@playwright/test";
import { openEndpoint, signIn } from "./helpers";

const gatewayUrl = `http://127.0.0.1:${Number(process.env.KULE_E2E_PORT ?? 3100) + 3}`;

/** A tenant's API key, created through the API as that tenant would in the browser. */
async function tenantKey(page: Page): Promise<string> {
  await signIn(page, "tenant");
  const res = await page.request.post("/api/trpc/apiKey.create", { data: { json: { name: `e2e overload ${Date.now()}` } } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { result: { data: { json: { secret: string } } } };
  await page.context().clearCookies();
  return body.result.data.json.secret;
}

test("under a batch flood the operator sees the overload queue and its refusals on the endpoint page, and the tenant sees its own refusals", async ({ page }) => {
  test.setTimeout(150_000);
  const secret = await tenantKey(page);
  await signIn(page, "operator");
  await openEndpoint(page, "Chat (Llama 3.1 8B)");
  const url = page.url();
  const replicas = page.getByTestId("replica").filter({ hasText: "ready" });
  if ((await replicas.count()) === 0) {
    await page.getByRole("button", { name: "Start replica" }).first().click();
    await expect(page.getByLabel(/^Device for /)).toBeEnabled();
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await expect(replicas.first()).toBeVisible({ timeout: 30_000 });
  }
  // Far more long batch calls at once than the replica's engine runs (the header lowers the class;
  // the short client timeout makes the ones queued behind the rest hopeless): the engine queues, the
  // gateway learns its limit and holds the rest, refusing what cannot make its deadline.
  const headers = { authorization: `Bearer ${secret}`, "x-kule-priority": "batch", "x-stainless-timeout": "3" };
  const call = () => fetch(`${gatewayUrl}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model: "chat", messages: [{ role: "user", content: "Write a long story." }], max_tokens: 200 }) }).then((r) => r.arrayBuffer().then(() => r.status), () => 0);
  let flooding = true;
  const statuses: number[] = [];
  const flood = Promise.all(
    Array.from({ length: 120 }, async () => {
      while (flooding) statuses.push(await call());
    }),
  );
  try {
    await page.goto(url);
    await expect(page.getByRole("heading", { name: "Live metrics" })).toBeVisible();
    for (const title of ["Overload queue at the gateway (by class · tenant)", "Calls refused under overload, by reason", "Tokens/s per tenant ÷ its weight (equal = fair)"]) {
      await expect(page.getByRole("figure", { name: title })).toHaveAttribute("data-has-data", "yes", { timeout: 60_000 });
    }
  } finally {
    flooding = false;
    await flood;
  }
  // Refused with 429 (this tenant asks for far more than anyone) or 503, never left to time out.
  expect(statuses.filter((s) => s !== 200).every((s) => s === 429 || s === 503)).toBe(true);
  expect(statuses.some((s) => s === 429 || s === 503)).toBe(true);

  await page.context().clearCookies();
  await signIn(page, "tenant");
  await expect(page.getByRole("figure", { name: "Your calls refused under overload, by reason" })).toHaveAttribute("data-has-data", "yes", { timeout: 30_000 });
});
