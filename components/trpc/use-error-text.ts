"use client";

import { useTranslations } from "use-intl";
import { errorText, formErrorOf, type ErrorTexts } from "./errors";

/** formErrorOf and errorText (./errors.ts) speaking the page's language; the server's own messages pass through as they are. */
export function useErrorText() {
  const t = useTranslations("trpc");
  const texts: ErrorTexts = { fixFields: t("fixFields"), somethingWrong: t("somethingWrong") };
  return { formErrorOf: (error: unknown) => formErrorOf(error, texts), errorText: (error: unknown) => errorText(error, texts) };
}
