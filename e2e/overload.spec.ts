import { expect, test, type Page } from "@playwright/test";
import { ensureReadyReplica, gatewayUrl, openEndpoint, signIn, tenantKey, trpcMutation, trpcQuery } from "./helpers";

type TenantLimits = { id: string; slug: string; updatedAt: string; rpmLimit: number | null; tpmLimit: number | null };

/** Sets a tenant's own request and token limits as the admin, and says what they were. */
async function setTenantLimits(page: Page, slug: string, limits: { rpmLimit: number | null; tpmLimit: number | null }): Promise<TenantLimits> {
  await page.context().clearCookies();
  await signIn(page, "admin");
  const before = (await trpcQuery<TenantLimits[]>(page, "tenant.list")).find((t) => t.slug === slug)!;
  await trpcMutation(page, "tenant.update", { id: before.id, expectedUpdatedAt: before.updatedAt, ...limits });
  await page.context().clearCookies();
  return before;
}

test("under a batch flood the operator sees the overload queue and its refusals on the endpoint page, and the tenant sees its own refusals", async ({ page }) => {
  test.setTimeout(150_000);
  const secret = await tenantKey(page, "overload");
  // The replica serves about the tokens a minute the tenant's plan allows: the plan would refuse the
  // flood before the queue did. Lifted for the flood, put back after.
  const before = await setTenantLimits(page, "anadolu-bank", { rpmLimit: 100_000_000, tpmLimit: 100_000_000 });
  await signIn(page, "operator");
  await openEndpoint(page, "Chat (Llama 3.1 8B)");
  const url = page.url();
  await ensureReadyReplica(page);
  // Far more batch calls at once than the replica's engine runs, each with a long prompt of its own
  // (no cached prefix: every one is a full prefill), the header lowering the class and the client's
  // one-second timeout making those queued behind the rest hopeless: the engine queues, the gateway
  // learns its limit and holds the rest, refusing what cannot make its deadline.
  const headers = { authorization: `Bearer ${secret}`, "x-kule-priority": "batch", "x-stainless-timeout": "1" };
  let asked = 0;
  const call = async (): Promise<{ status: number; code?: string; retryAfter?: string | null }> => {
    try {
      const r = await fetch(`${gatewayUrl}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model: "chat", messages: [{ role: "user", content: `${++asked} Summarize: ${"the quarterly report of the bank ".repeat(500)}` }], max_tokens: 200 }) });
      if (r.status === 200) {
        await r.arrayBuffer();
        return { status: 200 };
      }
      const body = (await r.json().catch(() => ({}))) as { error?: { code?: string } };
      return { status: r.status, code: body.error?.code, retryAfter: r.headers.get("retry-after") };
    } catch {
      return { status: 0 };
    }
  };
  let flooding = true;
  const refusals: { status: number; code?: string; retryAfter?: string | null }[] = [];
  const flood = Promise.all(
    Array.from({ length: 120 }, async () => {
      while (flooding) {
        const r = await call();
        if (r.status !== 200) refusals.push(r);
      }
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
    await setTenantLimits(page, "anadolu-bank", { rpmLimit: before.rpmLimit, tpmLimit: before.tpmLimit });
  }
  // Refused by the overload queue with 429 or 503 and told when to come back, never left to time out.
  expect(refusals.filter((r) => !((r.status === 429 || r.status === 503) && Number(r.retryAfter) > 0))).toEqual([]);
  expect(refusals.filter((r) => r.status === 429).every((r) => r.code === "overloaded")).toBe(true);
  expect(refusals.length).toBeGreaterThan(0);

  await signIn(page, "tenant");
  await expect(page.getByRole("figure", { name: "Your calls refused under overload, by reason" })).toHaveAttribute("data-has-data", "yes", { timeout: 30_000 });
});
