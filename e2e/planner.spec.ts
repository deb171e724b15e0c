import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("an operator plans the 70B chat endpoint for a forecast, sees H100 × TP 4 × 2 replicas ranked first with its cost per 1M tokens, and opens the deploy form filled with that layout", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "operator");
  await page.getByRole("link", { name: "Capacity planner" }).click();
  await expect(page.getByRole("heading", { name: "Capacity planner" })).toBeVisible();

  const model = page.getByLabel("Model version");
  await model.selectOption((await model.locator("option", { hasText: /llama-3\.1-instruct-large 1\.0 \(bf16\)/ }).getAttribute("value"))!);
  await page.getByLabel("Peak requests/s").fill("2");
  await page.getByLabel("Prompt tokens").fill("1000");
  await page.getByLabel("Answer tokens").fill("250");
  await page.getByLabel("TTFT p99 (ms)").fill("2000");
  await page.getByLabel("TPOT p99 (ms)").fill("30");
  await page.getByRole("button", { name: "Plan" }).click();

  // Ranked first: four H100s a replica in TP 4, two replicas (one for the load, one spare), with a price.
  const first = page.getByTestId("plan-row").first();
  await expect(first).toContainText("NVIDIA H100 80GB HBM3 × 4 (TP 4)", { timeout: 30_000 });
  await expect(first).toContainText("2 (8 GPUs)");
  await expect(first.getByTestId("cost-per-1m")).toContainText(/₺|TRY/);
  await expect(first).toContainText(/weights \+ .* KV \+ .* runtime/);
  // TP 2 cannot keep TPOT under 30 ms: it is refused with the limit it hits.
  await expect(page.getByTestId("plan-refused")).toContainText(/NVIDIA H100 80GB HBM3 × 2 \(TP 2\): .*TPOT p99 would be .* against 30 ms/);
  await expect(page.getByText(/Prefill is compute-bound/)).toBeVisible();

  await first.getByRole("link", { name: /^Deploy to / }).click();
  await expect(page).toHaveURL(/\/endpoints\/.+\?deploy=.+&replicas=2&tp=4&pp=1#deploy$/);
  await expect(page.getByText("The capacity planner's layout: TP 4, 2 replica(s). Check the fit below, then deploy.")).toBeVisible();
  await expect(page.getByLabel("Version to deploy").locator("option:checked")).toHaveText(/^1\.0 /);
  await expect(page.getByLabel("replicas")).toHaveValue("2");
  await expect(page.getByRole("table", { name: /How 1\.0 lays over NVIDIA H100 80GB HBM3/ }).locator("tr[aria-current=true]")).toContainText("TP 4 (4)");
});
