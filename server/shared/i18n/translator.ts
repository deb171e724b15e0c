import { createTranslator } from "use-intl/core";
import { TIME_ZONE, type Locale } from "./locales.ts";
import { MESSAGES, missingMessage } from "./messages.ts";

/** A translator outside React: server components, route handlers, file headers. */
export function translatorFor(locale: Locale) {
  return createTranslator({ locale, messages: MESSAGES[locale], timeZone: TIME_ZONE, getMessageFallback: ({ namespace, key }) => missingMessage(namespace, key) });
}
