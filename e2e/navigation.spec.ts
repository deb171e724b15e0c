import { expect, test } from "@playwright/test";
import { LOGINS, signIn, type Who } from "./helpers";

const NAV: Record<Exclude<Who, "otherTenant">, string[]> = {
  admin: ["Overview", "Models", "Endpoints", "Cluster", "Alerts", "Explore metrics", "Tenants", "Usage & cost", "Costs", "Capacity planner", "API keys", "Users & roles", "Audit log", "Call log", "KVKK", "Applications"],
  operator: ["Overview", "Models", "Endpoints", "Cluster", "Alerts", "Explore metrics", "Tenants", "Usage & cost", "Costs", "Capacity planner", "API keys"],
  auditor: ["Overview", "Models", "Endpoints", "Cluster", "Alerts", "Tenants", "Audit log", "Call log", "KVKK", "Applications"],
  tenant: ["Overview", "Usage & cost", "API keys", "Call log", "Applications", "Your data (KVKK)"],
};

test("the login form signs in and out", async ({ page }) => {
  await page.goto("/models");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("E-mail").fill(LOGINS.operator.email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("Wrong e-mail or password.");
  await page.getByLabel("Password").fill(LOGINS.operator.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("who")).toHaveText(LOGINS.operator.email);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/endpoints");
  await expect(page).toHaveURL(/\/login$/);
});

for (const [who, items] of Object.entries(NAV) as [Exclude<Who, "otherTenant">, string[]][]) {
  test(`${who} sees the navigation of the role`, async ({ page }) => {
    await signIn(page, who);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(items);
  });
}
