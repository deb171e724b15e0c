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
