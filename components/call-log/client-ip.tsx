"use client";

import { useTranslations } from "use-intl";

/**
 * A call's client IP as the explorer shows it: a row of special categories of personal data that
 * the reader may not see comes back as "masked" (server/call-log/client-ip.ts, maskSpecial), said
 * here in the reader's language with the reason.
 */
export function useClientIpText() {
  const t = useTranslations("kvkk.special");
  return (row: { clientIp: string | null; specialCategory: string | null }) => (row.specialCategory && row.clientIp === "masked" ? t("masked") : row.clientIp);
}
