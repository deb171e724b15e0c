"use client";

import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "use-intl";
import { LOCALES, LOCALE_NAMES } from "@/server/shared/i18n/locales";
import { setLocaleAction } from "@/app/locale-action";

/** English | Türkçe, in the shell and on the sign-in page; the page re-renders in the new language. */
export function LanguageSwitch() {
  const t = useTranslations("shell");
  const current = useLocale();
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <div className="language-switch" role="group" aria-label={t("language")}>
      {LOCALES.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          aria-pressed={l === current}
          disabled={pending}
          onClick={() =>
            start(async () => {
              await setLocaleAction(l);
              router.refresh();
            })
          }
        >
          {LOCALE_NAMES[l]}
        </button>
      ))}
    </div>
  );
}
