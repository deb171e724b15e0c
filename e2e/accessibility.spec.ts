import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn, type Who } from "./helpers";
import { ROLE_PAGES } from "./pages";

/** axe-core's serious and critical violations of the page as it stands, one line each. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1]?.trim() ?? v.help}`));
}

// Each role's pages as that role sees them; the admin's (every page) in both languages, since
// Turkish text is longer and its layout is its own.
const RUNS: { who: Exclude<Who, "otherTenant">; locale: string }[] = [
  { who: "admin", locale: "en-US" },
  { who: "admin", locale: "tr-TR" },
  { who: "operator", locale: "tr-TR" },
  { who: "auditor", locale: "en-US" },
  { who: "tenant", locale: "tr-TR" },
];

for (const { who, locale } of RUNS) {
  test.describe(`${who} in ${locale}`, () => {
    test.use({ locale });
    test(`no serious or critical accessibility violation on ${who}'s pages`, async ({ page }) => {
      test.setTimeout(300_000); // up to 16 pages, each rendered and analysed
      await signIn(page, who);
      const found: string[] = [];
      for (const path of ROLE_PAGES[who]) {
        await page.goto(path);
        await expect(page.locator("main :is(h1, h2)").first()).toBeVisible();
        await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
        found.push(...(await violations(page)).map((v) => `${path}: ${v}`));
      }
      expect(found).toEqual([]);
    });
  });
}
