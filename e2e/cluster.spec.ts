import { expect, test } from "@playwright/test";
import { openEndpoint, signIn } from "./helpers";

test("an operator starts a replica, watches it load and turn ready, then sees an injected XID fail it on the cluster page", async ({ page }) => {
  await signIn(page, "operator");
  await expect(page.getByRole("note").filter({ hasText: "This cluster is simulated" })).toBeVisible();

  await openEndpoint(page, "Vision detect");
  const row = page.getByRole("row", { name: /8\.0/ }).filter({ has: page.getByRole("button", { name: "Start replica" }) });
  await row.getByRole("button", { name: "Start replica" }).click();
  const device = page.getByLabel("Device for 8.0");
  await expect(device).toBeEnabled();
  const label = (await device.locator("option:checked").textContent())!;
  const host = label.split(" ")[0]!; // e.g. gpu-vis-01
  const gpu = /GPU (\d+)/.exec(label)![1]!;
  await page.getByRole("button", { name: "Start", exact: true }).click();
  const replica = page.getByTestId("replica").filter({ hasText: `${host} GPU ${gpu}` });
  await expect(replica).toContainText(/loading|ready/);
  await expect(replica).toContainText("ready", { timeout: 20_000 });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cluster" }).click();
  // Nodes are listed collapsed: find the node and open it.
  const nodes = page.getByRole("region", { name: "Nodes" });
  await nodes.getByLabel("Search nodes").fill(host);
  await expect(nodes.getByRole("status")).toHaveText(/^1 node ·/);
  await nodes.getByRole("button", { name: host, exact: true }).click();
  const card = page.getByRole("group", { name: `GPU ${gpu} of ${host}` });
  await expect(card).toContainText("vision-detect");
  await expect(card).toContainText("ready");
  page.on("dialog", (d) => void d.accept());
  await card.getByRole("button", { name: "Raise XID" }).click();
  await expect(card.getByText("XID 79", { exact: true })).toBeVisible();
  await expect(card).toContainText("failed");
  await expect(card).toContainText("reported XID 79");
  await page.getByRole("region", { name: "Faults" }).getByRole("button", { name: "Clear all faults" }).click();
  await expect(card.getByText("XID 79", { exact: true })).toHaveCount(0);
});

test("an auditor sees the cluster but no controls", async ({ page }) => {
  await signIn(page, "auditor");
  await page.goto("/cluster");
  await expect(page.getByRole("region", { name: "GPU utilization heat map" }).getByRole("link", { name: /^Charts of GPU 7 of gpu-llm-04/ })).toBeVisible();
  // Opened from the heat map, the node shows its GPUs, and an auditor gets no control over them.
  await page.getByRole("region", { name: "GPU utilization heat map" }).getByRole("button", { name: "gpu-llm-01", exact: true }).click();
  await expect(page.getByRole("region", { name: "gpu-llm-01" }).getByRole("group", { name: "GPU 0 of gpu-llm-01" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cordon" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Raise XID" })).toHaveCount(0);
});
