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

/** A tRPC query as the signed-in user (superjson's envelope). */
export async function trpcQuery<T>(page: Page, path: string, input?: unknown): Promise<T> {
  const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const res = await page.request.get(`/api/trpc/${path}${q}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { result: { data: { json: T } } }).result.data.json;
}

/** A tRPC mutation as the signed-in user; a refusal fails the test with its message. */
export async function trpcMutation<T>(page: Page, path: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/api/trpc/${path}`, { data: { json: input } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { result: { data: { json: T } } }).result.data.json;
}

/** The e2e gateway's URL (playwright.config.ts starts it three ports above the app). */
export const gatewayUrl = `http://127.0.0.1:${Number(process.env.KULE_E2E_PORT ?? 3100) + 3}`;

/** A tenant's API key, created through the API as that tenant would in the browser; signs out after. */
export async function tenantKey(page: Page, purpose: string): Promise<string> {
  await signIn(page, "tenant");
  const res = await page.request.post("/api/trpc/apiKey.create", { data: { json: { name: `e2e ${purpose} ${Date.now()}` } } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { result: { data: { json: { secret: string } } } };
  await page.context().clearCookies();
  return body.result.data.json.secret;
}

/** On an endpoint's page: starts a replica when none is ready, and waits for it. */
export async function ensureReadyReplica(page: Page) {
  const replicas = page.getByTestId("replica").filter({ hasText: "ready" });
  if ((await replicas.count()) > 0) return;
  await page.getByRole("button", { name: "Start replica" }).first().click();
  await expect(page.getByLabel(/^Device for /)).toBeEnabled();
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(replicas.first()).toBeVisible({ timeout: 30_000 });
}
