import { expect, test, type Page } from "@playwright/test";
import { openEndpoint, signIn } from "./helpers";

async function deploy(page: Page, version: string, replicas = 1) {
  const select = page.getByLabel("Version to deploy");
  await select.selectOption((await select.locator("option", { hasText: new RegExp(`^${version.replace(".", "\\.")} `) }).getAttribute("value"))!);
  if (replicas !== 1) await page.getByLabel("replicas").fill(String(replicas));
  await page.getByRole("button", { name: "Deploy at 0%" }).click();
}

test("an operator deploys the 70B as a TP 4 group, sees it over four GPUs, moves the slider, rolls back, and a 405B that does not fit is refused by name", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "operator");
  await openEndpoint(page, "Chat large (Llama 3.1 70B)");

  // Before anything starts, the form shows how 1.0 lays over the H100s: TP 2 does not fit, TP 4 does.
  const select = page.getByLabel("Version to deploy");
  await select.selectOption((await select.locator("option", { hasText: /^1\.0 / }).getAttribute("value"))!);
  const fit = page.getByRole("table", { name: /How 1\.0 lays over NVIDIA H100 80GB HBM3/ });
  await expect(fit.getByRole("row", { name: /^TP 2 \(2\)/ })).toContainText("does not fit");
  await expect(fit.getByRole("row", { name: /^TP 4 \(4\)/ })).toContainText("fits");
  await expect(fit.locator("tr[aria-current=true]")).toContainText("TP 4 (4)");
  await expect(page.getByText(/^TP 4 over 4 GPUs: 32\.9 GiB weights \+ .* KV per GPU, \d+ sequences of 8,192 tokens$/)).toBeVisible();

  for (const version of ["1.0", "1.1"]) {
    await deploy(page, version);
    // The seeded 1.0 already reads "ready": wait for its group's replica to be counted ready too.
    await expect(page.getByTestId(`version-${version}`)).toContainText(/ready.*1 \/ 1|1 \/ 1.*ready/, { timeout: 40_000 });
  }
  // Each replica is one group of four whole GPUs on one node.
  const groups = page.getByTestId("replica").filter({ hasText: "· TP 4" });
  await expect(groups).toHaveCount(2);
  await expect(groups.first()).toContainText(/gpu-llm-\d\d GPU \d\+\d\+\d\+\d · TP 4/);
  const where = (await groups.first().innerText()).match(/(gpu-llm-\d\d) GPU (\d)\+(\d)\+(\d)\+(\d)/)!;

  await page.getByRole("button", { name: "20%", exact: true }).click();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("version-1.1")).toContainText("20%");
  await page.getByRole("button", { name: "Roll back to 1.0" }).click();
  await expect(page.getByTestId("version-1.0")).toContainText("100%");

  // The 405B version needs two nodes of eight each; two of them cannot fit the fleet that is left.
  await deploy(page, "2.0", 2);
  await expect(page.getByRole("alert").filter({ hasText: "replica(s) fit" })).toContainText(/only [01] of 2 replica\(s\) fit: each is PP 2 × TP 8 over 16 GPUs .*needs 2 nodes with 8 free H100 each/);

  // The cluster page draws the group as one block over its four GPUs, and each GPU card says who holds it.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cluster" }).click();
  const nodes = page.getByRole("region", { name: "Nodes" });
  await nodes.getByLabel("Search nodes").fill(where[1]!);
  await nodes.getByRole("button", { name: where[1]!, exact: true }).click();
  const block = page.getByRole("group", { name: new RegExp(`^chat-large 1\\.[01]: TP 4 over GPU ${where.slice(2).join(", ")}$`) });
  await expect(block).toBeVisible();
  await expect(page.getByRole("group", { name: `GPU ${where[3]} of ${where[1]}` })).toContainText(/Held whole by chat-large 1\.[01] \(TP 4, rank 2 of 4\)/);

  // Its GPU charts read the four GPUs together (from the real Prometheus scraping the simulator's dcgm-exporter).
  await page.getByRole("link", { name: /^GPU charts of chat-large 1\.[01]$/ }).first().click();
  await expect(page.getByRole("heading", { name: /^GPUs of replica / })).toBeVisible();
  for (const gpu of where.slice(2)) await expect(page.getByRole("link", { name: new RegExp(`^${where[1]} GPU ${gpu} `) })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("figure", { name: "GPU utilization" })).toBeVisible();
});
