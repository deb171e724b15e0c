import type { Locale } from "./locales.ts";
import { en, type Messages } from "./messages/en/index.ts";
import { tr } from "./messages/tr/index.ts";

export type { Messages };
export const MESSAGES: Record<Locale, Messages> = { en, tr };

/** What a missing message shows instead of text: loud, so the every-page check finds it. */
export function missingMessage(namespace: string | undefined, key: string): string {
  return `⟦${[namespace, key].filter(Boolean).join(".")}⟧`;
}
