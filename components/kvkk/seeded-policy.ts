"use client";

import { useTranslations } from "use-intl";
import type { Messages } from "@/server/shared/i18n/messages";

type Texts = Messages["kvkkTexts"]["policy"]["call_log"];
const FIELDS = ["category", "dataSubjects", "purpose", "legalBasis", "periodReason", "responsible"] as const satisfies readonly (keyof Texts)[];

/**
 * The policy's entries as the page shows them: one no operator has edited yet still holds the
 * seed's English, and is shown in the page's language from the messages (kvkkTexts.policy); one
 * an operator edited is their text, kept in the language they wrote it in. Editing a seeded entry
 * saves the text shown, so it is stored in the language of the page it was edited on.
 */
export function useSeededPolicy() {
  const t = useTranslations("kvkkTexts.policy");
  return <E extends Record<(typeof FIELDS)[number], string> & { store: string; updatedByEmail: string | null }>(e: E): E => {
    if (e.updatedByEmail) return e;
    const key = (f: (typeof FIELDS)[number]) => `${e.store}.${f}` as "call_log.category";
    // A store the messages do not know (added later by a migration) is shown as stored.
    if (!t.has(key("category"))) return e;
    return { ...e, ...Object.fromEntries(FIELDS.map((f) => [f, t(key(f))])) };
  };
}
