import { expect, test } from "@playwright/test";
import { openEndpoint, signIn } from "./helpers";

test("an operator makes the chat endpoint prefix-aware with a fallback and a request class, is told what is wrong with a bad class name, and sees the routing saved", async ({ page }) => {
  await signIn(page, "operator");
  await openEndpoint(page, "Chat (Llama 3.1 8B)");
  const panel = page.locator(".panel", { has: page.getByRole("heading", { name: "Routing", exact: true }) });
  await expect(panel).toContainText("Replica choice: least outstanding requests");
  await expect(panel).toContainText("none — a failing call fails");

  await page.getByRole("button", { name: "Edit routing…" }).click();
  await page.getByLabel("Replica choice inside a version").selectOption({ label: "Prefix-aware (cache affinity, bounded load)" });
  await page.getByRole("button", { name: "Add a fallback" }).click();
  await page.getByLabel("Fallback 1").selectOption({ label: "Vision detect (vision-detect)" });
  await page.getByRole("button", { name: "Add a class" }).click();
  await page.getByLabel("Class 1 name").fill("Batch jobs");
  await page.getByLabel("Class 1 rule").selectOption({ label: "header equals" });
  await page.getByLabel("Class 1 argument").fill("x-tier");
  await page.getByLabel("Class 1 value").fill("batch");
  await page.getByLabel("Class 1 endpoint").selectOption({ label: "Embeddings (embed)" });
  await page.getByRole("button", { name: "Save routing" }).click();

  // A class name must be lower case without spaces: the server says so beside the classes, and nothing is saved.
  await expect(page.locator("#rs-classes-error")).toContainText("lower-case letters, digits, _ and -, at most 32");
  await page.getByLabel("Class 1 name").fill("batch-jobs");
  await page.getByRole("button", { name: "Save routing" }).click();

  await expect(panel).toContainText("Replica choice: prefix-aware (cache affinity, bounded load)");
  await expect(panel).toContainText("Fallbacks: Vision detect");
  await expect(panel.getByRole("listitem").filter({ hasText: "batch-jobs" })).toHaveText("batch-jobs: header x-tier = batch → Embeddings");

  // Saved, not just shown: a fresh load of the page reads it back.
  await page.reload();
  await expect(panel).toContainText("Replica choice: prefix-aware (cache affinity, bounded load)");
  await expect(panel).toContainText("Fallbacks: Vision detect");
  await expect(panel).toContainText("batch-jobs: header x-tier = batch → Embeddings");

  // Back as the seed had it, so the other specs' chat calls are routed as before.
  await page.getByRole("button", { name: "Edit routing…" }).click();
  await page.getByLabel("Replica choice inside a version").selectOption({ label: "Least outstanding requests" });
  await page.getByRole("button", { name: "Remove" }).first().click();
  await page.getByRole("button", { name: "Remove" }).first().click();
  await page.getByRole("button", { name: "Save routing" }).click();
  await expect(panel).toContainText("Replica choice: least outstanding requests");
  await expect(panel).toContainText("none — a failing call fails");
  await expect(panel).toContainText("none — every call stays here");
});
