"use client";

import { useState } from "react";
import { useLocale, useTranslations } from "use-intl";
import { LOCALE_NAMES, LOCALES, type Locale } from "@/server/shared/i18n/locales";

/**
 * The language a KVKK text Kule drafts (a breach notice, an erasure answer) is written in: the
 * page's by default, another when the recipient reads another. The text is kept as drafted.
 */
export function useDraftLanguage() {
  const pageLocale = useLocale() as Locale;
  const [locale, setLocale] = useState<Locale>(pageLocale);
  return { locale, picker: <DraftLanguagePicker value={locale} onChange={setLocale} /> };
}

function DraftLanguagePicker({ value, onChange }: { value: Locale; onChange: (l: Locale) => void }) {
  const t = useTranslations("kvkk");
  return (
    <label className="muted" style={{ fontSize: 13 }}>
      {t("draftLanguage")}{" "}
      <select value={value} onChange={(e) => onChange(e.target.value as Locale)}>
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
