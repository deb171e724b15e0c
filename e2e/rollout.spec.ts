import { expect, test, type Page } from "@playwright/test";
import { gatewayUrl, openEndpoint, signIn, tenantKey } from "./helpers";

/** `n` embedding calls through the gateway; returns how many each version served. */
async function traffic(page: Page, secret: string, n: number) {
  const served: Record<string, number> = {};
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, () => page.request.post(`${gatewayUrl}/v1/embeddings`, { headers: { authorization: `Bearer ${secret}` }, data: { model: "embed", input: "Merhaba dünya" } })),
    );
    for (const r of batch) {
      expect(r.status()).toBe(200);
      const v = r.headers()["x-kule-version"]!;
      served[v] = (served[v] ?? 0) + 1;
    }
  }
  return served;
}

const servedShare = async (page: Page, version: string) => Number((await page.getByTestId(`served-${version}`).innerText()).replace("%", ""));

test("an operator deploys a canary, moves the slider, sees the served split follow, and rolls back", async ({ page }) => {
  test.setTimeout(120_000);
  const secret = await tenantKey(page, "rollout");
  await signIn(page, "operator");
  await openEndpoint(page, "Embeddings");

  // The live version gets a replica, then 1.1 is deployed beside it.
  for (const version of ["1.0", "1.1"]) {
    const select = page.getByLabel("Version to deploy");
    await select.selectOption((await select.locator("option", { hasText: new RegExp(`^${version.replace(".", "\\.")} `) }).getAttribute("value"))!);
    await page.getByRole("button", { name: "Deploy at 0%" }).click();
    await expect(page.getByTestId(`version-${version}`)).toContainText("ready", { timeout: 30_000 });
    await expect(page.getByTestId(`version-${version}`)).toContainText(/[1-9] \/ [1-9]/);
  }
  await expect(page.getByTestId("rollout-history")).toContainText("Deployed 1.1 × 1");

  // Slider to the 20% preset and apply: every gateway follows within a second.
  await page.getByRole("button", { name: "20%", exact: true }).click();
  await expect(page.getByTestId("canary-weight")).toHaveText("20%");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("version-1.1")).toContainText("20%");
  await page.waitForTimeout(1000);
  const served = await traffic(page, secret, 200);
  // Smooth weighted round robin: 20% of 200 to within a request or two (config reloads keep its state).
  expect(served["1.1"]).toBeGreaterThanOrEqual(38);
  expect(served["1.1"]).toBeLessThanOrEqual(42);
  await expect.poll(() => servedShare(page, "1.1"), { timeout: 10_000 }).toBeCloseTo(20, 0);

  // One click back: 1.0 takes everything again and the served split follows.
  await page.getByRole("button", { name: "Roll back to 1.0" }).click();
  await expect(page.getByTestId("version-1.0")).toContainText("100%");
  await page.waitForTimeout(1000);
  const after = await traffic(page, secret, 200);
  expect(after["1.1"] ?? 0).toBe(0);
  await expect.poll(() => servedShare(page, "1.1"), { timeout: 10_000 }).toBeCloseTo(10, 0);
  await expect(page.getByTestId("rollout-history")).toContainText("Rolled back to 1.0");
  // The canary keeps its replica for inspection.
  await expect(page.getByTestId("version-1.1")).toContainText("ready");
});
