import { expect, test, type Page } from "@playwright/test";
import { openEndpoint, signIn } from "./helpers";

const openChat = (page: Page) => openEndpoint(page, "Chat (Llama 3.1 8B)");

test("an operator autoscales a version: a bad range is named on its field, the saved policy starts the warm floor and the decision is listed with its reason", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "operator");
  await openChat(page);
  const section = page.getByRole("region", { name: "Autoscaling of 1.0" });
  await expect(section).toContainText("not autoscaled");
  await section.getByRole("button", { name: "Autoscale this version…" }).click();

  await section.getByLabel("Minimum replicas (warm floor)").fill("3");
  await section.getByLabel("Maximum replicas").fill("2");
  await section.getByRole("button", { name: "Save policy" }).click();
  await expect(section.getByText("at least the minimum", { exact: true })).toBeVisible();
  await expect(section.getByLabel("Maximum replicas")).toHaveAttribute("aria-invalid", "true");

  await section.getByLabel("Minimum replicas (warm floor)").fill("1");
  await section.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Autoscaling of 1.0 saved")).toBeVisible();
  await expect(section.getByRole("heading", { name: /Version 1\.0/ })).toContainText("1–2 replicas");

  // No replica runs: the autoscaler starts the warm floor, and says why, in the list; the last decision is shown beside it.
  const decisions = section.getByRole("list", { name: "Latest decisions of 1.0" });
  await expect(decisions.getByRole("listitem").first()).toContainText(/UTC: 0 → 1: below the warm floor of 1/, { timeout: 20_000 });
  await expect(section.getByRole("status").filter({ hasText: "Last decision" })).toBeVisible();
  await expect(page.getByTestId("replica").filter({ hasText: "ready" }).first()).toBeVisible({ timeout: 30_000 });

  // Stopped, the policy goes and the replicas stay as they are.
  await section.getByRole("button", { name: "Stop autoscaling" }).click();
  await expect(page.getByText("Autoscaling of 1.0 removed; its replicas stay as they are")).toBeVisible();
  await expect(section).toContainText("not autoscaled");
  await expect(page.getByTestId("replica").filter({ hasText: "ready" }).first()).toBeVisible();
});

test("a MIG change of a serving GPU: the preview shows where its replica moves, refuses a layout that breaks the rules with the reason, and applies as steps", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "operator");
  await openChat(page);
  // A replica of chat 1.0 on the first 3g.40gb instance of gpu-llm-04 GPU 6.
  await page.getByRole("row", { name: /1\.0/ }).filter({ has: page.getByRole("button", { name: "Start replica" }) }).getByRole("button", { name: "Start replica" }).click();
  const device = page.getByLabel("Device for 1.0");
  await expect(device).toBeEnabled();
  await device.selectOption((await device.locator("option", { hasText: "gpu-llm-04 GPU 6 3g.40gb@0" }).getAttribute("value"))!);
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(page.getByTestId("replica").filter({ hasText: "gpu-llm-04 GPU 6" })).toContainText("ready", { timeout: 30_000 });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cluster" }).click();
  const nodes = page.getByRole("region", { name: "Nodes" });
  await nodes.getByLabel("Search nodes").fill("gpu-llm-04");
  await nodes.getByRole("button", { name: "gpu-llm-04", exact: true }).click();
  const card = page.getByRole("group", { name: "GPU 6 of gpu-llm-04" });
  await expect(card).toContainText("chat");

  // A third instance on top of the two 3g.40gb ones overlaps them: the plan is refused, with the reason.
  await card.getByRole("button", { name: "Edit MIG layout" }).click();
  await card.getByRole("button", { name: "Add instance" }).click();
  await card.getByRole("button", { name: "Preview moving its replicas…" }).click();
  const preview = card.getByRole("region", { name: "MIG change preview" });
  const move = preview.getByRole("row").filter({ hasText: "chat 1.0" });
  await expect(move).toContainText("gpu-llm-04 GPU 6 3g.40gb@0");
  await expect(preview.getByRole("alert")).toContainText(/Refused: gpu-llm-04 GPU 6: .*overlaps 3g\.40gb/);
  await expect(preview.getByRole("button", { name: "Apply as steps" })).toBeDisabled();
  await preview.getByRole("button", { name: "Cancel", exact: true }).click();

  // One 7g.80gb instance instead: the replica moves to another GPU of the pool meanwhile and back onto it after.
  await card.getByRole("button", { name: "Edit MIG layout" }).click();
  await card.getByLabel("Profile of instance 1").selectOption("7g.80gb");
  await card.getByRole("button", { name: "Remove", exact: true }).nth(1).click();
  await card.getByRole("button", { name: "Preview moving its replicas…" }).click();
  await expect(preview).toContainText("gpu-llm-04 GPU 6: 3g.40gb@0 + 3g.40gb@4 → 7g.80gb@0");
  await expect(move.getByRole("cell").nth(2)).toHaveText(/^gpu-llm-0\d GPU \d/);
  await expect(move.getByRole("cell").nth(3)).toHaveText("gpu-llm-04 GPU 6 7g.80gb@0");
  await expect(preview.getByRole("alert")).toHaveCount(0);
  await preview.getByRole("button", { name: "Apply as steps" }).click();

  const steps = card.getByRole("region", { name: "MIG change steps" });
  await expect(steps.getByRole("listitem")).toHaveText([/start elsewhere/, /wait ready/, /shift traffic and drain/, /re-partition/, /move back/, /wait ready on the new layout/, /drain the temporary replicas/]);
  await expect(steps.getByRole("status")).toHaveText("Done.", { timeout: 90_000 });
  await expect(steps.getByRole("listitem").filter({ hasText: "✓" })).toHaveCount(7);
  await steps.getByRole("button", { name: "Close" }).click();
  await expect(card).toContainText("7g.80gb");
  await expect(card).toContainText("chat");
});
