import { expect, test } from "@playwright/test";
import { signIn, unique } from "./helpers";

const AM = `http://127.0.0.1:${Number(process.env.KULE_E2E_PORT ?? 3100) + 5}`;

/** What Prometheus does when a rule fires (the Prometheus part is proved in server/alerts/alerts.int.test.ts). */
// Prometheus re-sends an alert with the start it fired at; an end before that start is refused (400).
async function fire(labels: Record<string, string>, startsAt: Date, endsAt?: Date) {
  const alert = { labels, annotations: { summary: `${labels.endpoint}: latency error budget burning 14.4× too fast` }, startsAt: startsAt.toISOString(), ...(endsAt ? { endsAt: endsAt.toISOString() } : {}) };
  const res = await fetch(`${AM}/api/v2/alerts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([alert]) });
  expect(res.ok).toBe(true);
}

test("a burn-rate alert Alertmanager delivers shows on the overview and the endpoint page, then resolves", async ({ page }) => {
  // Alertmanager sends "resolved" at its next group interval (30 s, as Kule configures it).
  test.setTimeout(90_000);
  await signIn(page, "operator");
  const labels = { alertname: "KuleSloBurnFast", severity: "page", endpoint: "chat", slo: "latency", long_window: "1h", short_window: "5m", run: unique() };
  const startsAt = new Date();
  await fire(labels, startsAt);
  const firing = page.getByRole("region", { name: "Firing alerts" });
  await expect(firing.getByTestId("alert-KuleSloBurnFast")).toContainText("Firing", { timeout: 20_000 });
  await expect(firing.getByTestId("alert-KuleSloBurnFast")).toContainText("latency · 1h & 5m");
  await firing.getByRole("link", { name: "Chat (Llama 3.1 8B)" }).click();
  const history = page.getByRole("region", { name: "Alert history" });
  await expect(history.getByTestId("alert-KuleSloBurnFast")).toContainText("firing for");
  await expect(history.getByRole("link", { name: "charts then" })).toHaveAttribute("href", /\?range=15m#charts$/);
  // The rule stops firing: Prometheus sends it ended, Alertmanager delivers "resolved".
  await fire(labels, startsAt, new Date());
  await expect(history.getByTestId("alert-KuleSloBurnFast").first()).toContainText("Resolved", { timeout: 50_000 });
});

test("an operator adds a webhook receiver; one with an SMTP server amtool refuses is not saved and says why", async ({ page }) => {
  await signIn(page, "operator");
  await page.getByRole("link", { name: "Alerts", exact: true }).click();
  const name = `mail-${unique()}`;
  await page.getByRole("button", { name: "Add receiver" }).click();
  await page.getByLabel("Kind", { exact: true }).selectOption("email");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("To", { exact: true }).fill("ops@example.com");
  await page.getByLabel("From", { exact: true }).fill("kule@example.com");
  await page.getByLabel("SMTP server", { exact: true }).fill("smtp.example.com");
  await page.getByRole("button", { name: "Save receiver" }).click();
  await expect(page.getByText(/Alertmanager would refuse this configuration: .*missing port/)).toBeVisible();
  await page.getByLabel("SMTP server", { exact: true }).fill("smtp.example.com:587");
  await page.getByRole("button", { name: "Save receiver" }).click();
  const receivers = page.getByRole("region", { name: "Receivers" });
  await expect(receivers.getByRole("row", { name: new RegExp(name) })).toContainText("ops@example.com via smtp.example.com:587");
});
