import { expect, test } from "@playwright/test";
import { ensureReadyReplica, gatewayUrl, openEndpoint, signIn, tenantKey } from "./helpers";

test("under a batch flood the operator sees the overload queue and its refusals on the endpoint page, and the tenant sees its own refusals", async ({ page }) => {
  test.setTimeout(150_000);
  const secret = await tenantKey(page, "overload");
  await signIn(page, "operator");
  await openEndpoint(page, "Chat (Llama 3.1 8B)");
  const url = page.url();
  await ensureReadyReplica(page);
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
