import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { db } from "../db/client.ts";
import { auth } from "../auth/next-auth.ts";
import { LOCALE_COOKIE, pickLocale, type Locale } from "../shared/i18n/locales.ts";
import { translatorFor } from "../shared/i18n/translator.ts";

/** This request's language (once per request): the user's setting, the switch's cookie, the browser's. */
export const requestLocale = cache(async (): Promise<Locale> => {
  const [jar, head, session] = await Promise.all([cookies(), headers(), auth()]);
  const userId = session?.user?.id;
  const user = userId ? await db().user.findUnique({ where: { id: userId }, select: { locale: true } }) : null;
  return pickLocale({ user: user?.locale, cookie: jar.get(LOCALE_COOKIE)?.value, acceptLanguage: head.get("accept-language") });
});

/** A translator for server components, page titles and route handlers (CSV headers). */
export async function serverTranslator() {
  const locale = await requestLocale();
  return translatorFor(locale);
}
