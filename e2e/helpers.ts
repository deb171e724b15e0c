import { expect, type Page } from "@playwright/test";

export const LOGINS = {
  admin: { email: "admin@kule.local", password: "kule-admin-demo" },
  operator: { email: "operator@kule.local", password: "kule-operator-demo" },
  auditor: { email: "auditor@kule.local", password: "kule-auditor-demo" },
  tenant: { email: "tenant@anadolu-bank.local", password: "kule-tenant-demo" },
  otherTenant: { email: "tenant@bogazici-retail.local", password: "kule-tenant-demo" },
} as const;

export type Who = keyof typeof LOGINS;

/** Signs in through next-auth's credentials endpoint (faster than the form; the form has its own test). */
export async function signIn(page: Page, who: Who) {
  const { email, password } = LOGINS[who];
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/credentials", { form: { email, password, csrfToken, callbackUrl: "/" } });
  expect(res.ok()).toBe(true);
  await page.goto("/");
  await expect(page.getByTestId("who")).toHaveText(email);
}

export const unique = () => Math.random().toString(36).slice(2, 8);

/**
 * Opens an endpoint from the Endpoints list. The overview names endpoints too (the SLA board and any
 * firing alert), so the click waits until the list is the page shown, not the one being left.
 */
export async function openEndpoint(page: Page, name: string) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Endpoints" }).click();
  await page.waitForURL(/\/endpoints$/);
  await page.getByRole("main").getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
}
