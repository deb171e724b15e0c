import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { decode, encode } from "next-auth/jwt";
import { signIn } from "./helpers";

// Single sign-on against a real OpenID provider (e2e/oidc-server.ts, started by playwright.config.ts).
const idp = `http://127.0.0.1:${Number(process.env.KULE_E2E_PORT ?? 3100) + 6}`;
const SESSION_COOKIE = "authjs.session-token";
const AUTH_SECRET = "e2e-secret-e2e-secret-e2e-secret"; // the app's, in playwright.config.ts

test.describe.configure({ mode: "serial" });

let pool: pg.Pool;
test.beforeAll(() => void (pool = new pg.Pool({ connectionString: process.env.KULE_E2E_DATABASE_URL, max: 1 })));
test.afterAll(async () => {
  await fetch(`${idp}/__tamper?on=0`);
  await pool.end();
});

/** Through the provider's own login and consent pages, as a person would. */
async function ssoLogin(page: Page, login: string) {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with Test IdP" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("whatever-the-idp-accepts");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

const refusals = async (email: string) => (await pool.query(`SELECT after->>'code' AS code, after->>'reason' AS reason FROM "AuditEvent" WHERE action = 'auth.sign_in.refused' AND after->>'method' = 'sso' AND ($1 = '' OR after->>'email' = $1) ORDER BY id`, [email])).rows;

test("an admin's rule lets a person in by single sign-on: the first sign-in creates the user, audited", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.goto("/users");
  await expect(page.getByTestId("sso-settings")).toContainText("Signing in with Test IdP");
  await page.getByRole("button", { name: "New rule" }).click();
  await page.getByLabel("Value").fill("kule-operators");
  await page.getByLabel("Role", { exact: true }).selectOption("operator");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByRole("row", { name: /groups kule-operators operator/ })).toBeVisible();

  const person = await browser.newPage();
  await ssoLogin(person, "oliver");
  await expect(person.getByTestId("who")).toHaveText("oliver@idp.example");
  const nav = person.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Endpoints" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users & roles" })).toHaveCount(0);
  const user = await pool.query(`SELECT u."ssoSubject", m.role FROM "User" u JOIN "Membership" m ON m."userId" = u.id WHERE u.email = 'oliver@idp.example'`);
  expect(user.rows).toEqual([{ ssoSubject: `${idp}|oliver`, role: "operator" }]);
  const signIns = await pool.query(`SELECT action, after->>'method' AS method FROM "AuditEvent" WHERE "actorEmail" = 'oliver@idp.example' AND action = 'auth.sign_in'`);
  expect(signIns.rows).toEqual([{ action: "auth.sign_in", method: "sso" }]);
  await person.close();
});

test("a person whose groups match no rule is refused, and the sign-in page says why", async ({ page }) => {
  await ssoLogin(page, "mallory");
  await expect(page).toHaveURL(/\/login\?code=no_rule/);
  await expect(page.getByTestId("login-error")).toContainText("none of Kule's sign-in rules matches your groups");
  expect(await refusals("mallory@idp.example")).toEqual([{ code: "no_rule", reason: "no sign-in rule matches this identity (groups: marketing)" }]);
  expect((await pool.query(`SELECT 1 FROM "User" WHERE email = 'mallory@idp.example'`)).rowCount).toBe(0);
});

test("an ID token altered on its way (groups raised to admins) is refused: its signature does not hold", async ({ page }) => {
  await fetch(`${idp}/__tamper?on=1`);
  try {
    await ssoLogin(page, "oliver");
    await expect(page).toHaveURL(/\/login\?code=invalid_token/);
    await expect(page.getByTestId("login-error")).toContainText("could not be verified");
  } finally {
    await fetch(`${idp}/__tamper?on=0`);
  }
  const last = (await refusals("")).at(-1);
  expect(last).toMatchObject({ code: "invalid_token" });
  expect(last?.reason).toMatch(/signature verification failed/);
  const role = await pool.query(`SELECT m.role FROM "User" u JOIN "Membership" m ON m."userId" = u.id WHERE u.email = 'oliver@idp.example'`);
  expect(role.rows).toEqual([{ role: "operator" }]);
});

test("an expired session sends the person back to the sign-in page", async ({ page, context }) => {
  await ssoLogin(page, "oliver");
  await expect(page.getByTestId("who")).toHaveText("oliver@idp.example");
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)!;
  const token = await decode({ token: cookie.value, secret: AUTH_SECRET, salt: SESSION_COOKIE });
  expect(token?.email).toBe("oliver@idp.example");
  // The same session, its expiry passed a minute ago (as after eight hours).
  const expired = await encode({ token: token!, secret: AUTH_SECRET, salt: SESSION_COOKIE, maxAge: -60 });
  await context.addCookies([{ ...cookie, value: expired }]);
  await page.goto("/endpoints");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("button", { name: "Continue with Test IdP" })).toBeVisible();
});
