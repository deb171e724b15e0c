/**
 * The languages Kule speaks and how one is chosen for a request. Pure: the app's request code
 * (request-locale.ts) and the tests call the same rule.
 */
export const LOCALES = ["en", "tr"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Set by the language switch so the choice holds before sign-in (the login page) too. */
export const LOCALE_COOKIE = "kule_locale";

/** Each language's own name, as the switch lists it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", tr: "Türkçe" };

/**
 * Times are shown in UTC, labelled, in both languages: the charts, Prometheus, the exports and
 * the audit trail all keep UTC, and one clock across them avoids an auditor's off-by-three-hours.
 */
export const TIME_ZONE = "UTC";

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (LOCALES as readonly string[]).includes(v);
}

/**
 * The user's own setting first, then the switch's cookie (a visitor not yet signed in), then
 * the browser's Accept-Language in its order of preference (`tr-TR` counts as `tr`), else English.
 */
export function pickLocale(opts: { user?: string | null; cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(opts.user)) return opts.user;
  if (isLocale(opts.cookie)) return opts.cookie;
  for (const lang of acceptedLanguages(opts.acceptLanguage ?? "")) {
    const base = lang.split("-")[0]!.toLowerCase();
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** `tr-TR,tr;q=0.9,en;q=0.8` → the tags by descending q, dropping q=0. */
function acceptedLanguages(header: string): string[] {
  return header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((l) => l.tag && l.tag !== "*" && Number.isFinite(l.q) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}
