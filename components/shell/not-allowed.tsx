"use client";

import Link from "next/link";
import { useTranslations } from "use-intl";
import type { Messages } from "@/server/shared/i18n/messages";

export function NotAllowed({ page }: { page: keyof Messages["pages"] }) {
  const t = useTranslations();
  return (
    <div className="not-allowed panel" role="region" aria-label={t("shell.notAllowed.title")}>
      <h1>{t("shell.notAllowed.title")}</h1>
      <p className="muted">{t("shell.notAllowed.body", { what: t(`pages.${page}.what`) })}</p>
      <Link href="/">{t("shell.notAllowed.back")}</Link>
    </div>
  );
}
