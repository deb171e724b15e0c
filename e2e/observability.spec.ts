import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { ensureReadyReplica, gatewayUrl, openEndpoint, signIn, tenantKey } from "./helpers";

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

test("the endpoint page and the GPU page render live charts with data from Prometheus", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const secret = await tenantKey(page, "charts");
  await signIn(page, "operator");
  await openEndpoint(page, "Chat (Llama 3.1 8B)");
  const url = page.url();

  // A ready replica serves the traffic (and its vLLM metrics feed queue, KV cache and batch fill).
  await ensureReadyReplica(page);
  // Traffic through the gateway, which Prometheus scrapes every second, flowing all along: a
  // counter's first increase happens before its first scrape and would show as no rate at all.
  const call = () => page.request.post(`${gatewayUrl}/v1/chat/completions`, { headers: { authorization: `Bearer ${secret}` }, data: { model: "chat", messages: [{ role: "user", content: "Merhaba" }], max_tokens: 8 } });
  await expect.poll(async () => (await call()).status(), { timeout: 30_000 }).toBe(200);
  let flowing = true;
  const traffic = (async () => {
    while (flowing) {
      await call().catch(() => null);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Live metrics" })).toBeVisible();
  for (const title of ["Requests/s by version", "Latency", "Time per output token", "Input and output tokens/s", "KV-cache usage", "Batch fill (running / maximum batch)"]) {
    const figure = page.getByRole("figure", { name: title });
    await expect(figure).toHaveAttribute("data-has-data", "yes", { timeout: 30_000 });
    // A drawn line: two samples in a row at least (a flat line has no height, so check its path).
    await expect(figure.locator("path.recharts-curve").first()).toHaveAttribute("d", /[LC]/, { timeout: 30_000 });
  }
  // Hover shows the exact value with its unit.
  const rps = page.getByRole("figure", { name: "Requests/s by version" });
  // The mouse moves in the viewport: bring the chart into it (panels above it, like the alert history, push it down).
  await rps.scrollIntoViewIfNeeded();
  const box = (await rps.getByRole("application").boundingBox())!;
  // Sweep right to left: the newest steps can still be gaps, which the tooltip leaves out.
  await expect
    .poll(async () => {
      for (let x = box.width - 10; x > box.width / 2; x -= 12) {
        await page.mouse.move(box.x + x, box.y + box.height / 2);
        const text = (await rps.locator(".recharts-tooltip-wrapper").textContent()) ?? "";
        if (/\d req\/s/.test(text)) return text;
      }
      return "";
    })
    .toMatch(/v1\.0.*\d(\.\d+)? req\/s/);
  // The SLA panel on the same page has a status for this endpoint.
  await expect(page.getByRole("region", { name: "SLA" }).locator("[data-colour]")).toBeVisible();
  await screenshot(page, testInfo, "endpoint-page-charts");

  // From the cluster page to a GPU's DCGM charts.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cluster" }).click();
  await page.getByRole("link", { name: /^Charts of GPU 0 of / }).first().click();
  await expect(page.getByRole("heading", { name: /^GPU GPU-/ })).toBeVisible();
  for (const title of ["GPU utilization", "Framebuffer used", "Power", "Temperature", "SM clock"]) {
    await expect(page.getByRole("figure", { name: title })).toHaveAttribute("data-has-data", "yes", { timeout: 30_000 });
  }
  await screenshot(page, testInfo, "gpu-page-charts");

  // The overview opens on every endpoint's SLA.
  await page.getByRole("link", { name: "Overview" }).click();
  const board = page.getByRole("region", { name: "SLA status" });
  await expect(board.getByTestId("sla-chat").locator("[data-colour]")).toBeVisible();
  // Budget left, or how far it is spent (early failed calls while a replica loads can spend a fresh 30-day budget).
  await expect(board.getByTestId("sla-chat")).toContainText(/% left|spent \(\d+% over\)|—/);
  await screenshot(page, testInfo, "overview-sla");
  flowing = false;
  await traffic;
});

test("an operator's explore box charts a PromQL result and names a bad query's error", async ({ page }, testInfo) => {
  await signIn(page, "operator");
  await page.getByRole("link", { name: "Explore metrics" }).click();
  await page.getByLabel("PromQL").fill('sum by (job) (up{job="dcgm"})');
  await page.getByRole("button", { name: "Run query" }).click();
  await expect(page.getByRole("figure", { name: "Result" })).toHaveAttribute("data-has-data", "yes");
  await expect(page.getByRole("cell", { name: '{job="dcgm"}' })).toBeVisible();
  await page.getByLabel("PromQL").fill("sum(up");
  await page.getByRole("button", { name: "Run query" }).click();
  await expect(page.getByRole("note", { name: "Query error" })).toContainText("parse error");
  await screenshot(page, testInfo, "explore-error");
});

test("a tenant has no explore box, and its overview shows its own usage charts", async ({ page }) => {
  await signIn(page, "tenant");
  await expect(page.getByRole("link", { name: "Explore metrics" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Your usage and latency" })).toBeVisible();
  await page.goto("/explore");
  await expect(page.getByRole("region", { name: "Not allowed" })).toContainText("Your role cannot open raw PromQL");
});
