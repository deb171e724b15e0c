import { defineConfig } from "@playwright/test";

// `npm test` (scripts/test.ts) prepares a fresh seeded database and a production build, then
// runs this with KULE_E2E_DATABASE_URL set. Debian's Chromium is used: never download a browser.
const port = Number(process.env.KULE_E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.KULE_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: `npx next start -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      DATABASE_URL: process.env.KULE_E2E_DATABASE_URL ?? "",
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
