"use client";

import { useLocale, useTranslations } from "use-intl";
import { LEGAL_SENTENCES, type LegalKey } from "@/server/shared/i18n/legal-sentences";
import { citeTitle, formatCite } from "@/server/shared/i18n/legal-cite";
import { isLocale } from "@/server/shared/i18n/locales";

type Values = Record<string, string | number | Date>;

/** The articles a legal sentence rests on, as small tags ("KVKK Art. 12(5)" / "KVKK m.12/5"), the law's full name on hover. */
export function CiteTags({ id }: { id: LegalKey }) {
  const l = useLocale();
  const locale = isLocale(l) ? l : "en";
  return (
    <>
      {LEGAL_SENTENCES[id].cite.map((c) => (
        <span key={formatCite(c, "en")} className="cite" title={citeTitle(c, locale)}>
          {formatCite(c, locale)}
        </span>
      ))}
    </>
  );
}

/** A legal sentence of LEGAL_SENTENCES in the reader's language, with its citation beside it. */
export function Legal({ id, values }: { id: LegalKey; values?: Values }) {
  const t = useTranslations() as unknown as (key: string, values?: Values) => string;
  return (
    <>
      {t(id, values)} <CiteTags id={id} />
    </>
  );
}
