import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { currentActor } from "../auth/page-guard.ts";
import { LOCALE_COOKIE, pickLocale, type Locale } from "../shared/i18n/locales.ts";
import { translatorFor } from "../shared/i18n/translator.ts";

/** This request's language (once per request): the user's setting, the switch's cookie, the browser's. */
export const requestLocale = cache(async (): Promise<Locale> => {
  // The actor the page guard loads anyway (the same per-request cache): no query of its own.
  const [jar, head, actor] = await Promise.all([cookies(), headers(), currentActor()]);
  return pickLocale({ user: actor?.locale, cookie: jar.get(LOCALE_COOKIE)?.value, acceptLanguage: head.get("accept-language") });
});

/** A translator for server components, page titles and route handlers (CSV headers). */
export async function serverTranslator() {
  const locale = await requestLocale();
  return translatorFor(locale);
}
