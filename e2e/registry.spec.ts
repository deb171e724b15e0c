import { expect, test } from "@playwright/test";
import { signIn, unique } from "./helpers";

test("an operator registers a model and a version, then creates an endpoint for it", async ({ page }) => {
  const name = `e2e-model-${unique()}`;
  const slug = `e2e-${unique()}`;
  await signIn(page, "operator");

  await page.getByRole("link", { name: "Models" }).click();
  await page.getByRole("button", { name: "New model" }).click();
  await page.getByLabel("Name").fill("Not A Valid Name");
  await page.getByRole("button", { name: "Create model" }).click();
  // The procedure's own schema answers, next to the field.
  await expect(page.locator("#model-name-error")).toContainText("lowercase");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Task").selectOption("llm");
  await page.getByRole("button", { name: "Create model" }).click();
  await page.getByRole("link", { name }).click();

  await page.getByRole("button", { name: "Add version" }).click();
  await page.getByLabel("Version").fill("2.0");
  await page.getByLabel("Artifact URI").fill(`s3://kule-models/${name}/2.0`);
  await page.getByLabel("Precision").selectOption("fp8");
  await page.getByLabel("Parameter count").fill("8030000000");
  await page.getByLabel("Weights (GB)").fill("8.03");
  await page.getByLabel("Minimum GPU memory (GB)").fill("4");
  await page.getByRole("button", { name: "Add version" }).click();
  await expect(page.locator("#v-mingpu-error")).toContainText("at least the weights");
  await page.getByLabel("Minimum GPU memory (GB)").fill("9.6");
  await page.getByRole("button", { name: "Add version" }).click();
  const row = page.getByRole("row", { name: /2\.0/ });
  await expect(row).toContainText("8.03 B");
  await expect(row).toContainText("8.0 GB");

  await page.getByRole("link", { name: "Endpoints" }).click();
  await page.getByRole("button", { name: "New endpoint" }).click();
  await page.getByLabel("Name", { exact: true }).fill("E2E chat");
  await page.getByLabel("API name (slug)").fill(slug);
  await page.getByLabel("Model").selectOption({ label: name });
  await page.getByLabel("First version (takes 100%)").selectOption({ label: "2.0 (fp8)" });
  await page.getByLabel("Node pool").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Create endpoint" }).click();
  await page.getByRole("link", { name: "E2E chat" }).click();
  await expect(page.getByRole("heading", { name: "E2E chat" })).toBeVisible();
  await expect(page.getByText(slug, { exact: true })).toBeVisible();
  await expect(page.getByTestId("version-2.0")).toContainText(/2\.0\s*fp8\s*pending\s*0 \/ 0/);
  await expect(page.getByLabel("Traffic for 2.0")).toHaveValue("100");
  await expect(page.getByTestId("replica")).toHaveCount(0);
  await expect(page.getByText("none running")).toBeVisible();
  // A new endpoint has no traffic yet: its charts say so rather than drawing zeros.
  await expect(page.getByRole("figure", { name: "Latency" })).toContainText("No data in this range");
});
