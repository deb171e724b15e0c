import "server-only";
import type { Metadata } from "next";
import type { Messages } from "../shared/i18n/messages.ts";
import { serverTranslator } from "./request-locale.ts";

/** A page's `generateMetadata`: its tab title in the request's language. */
export function titled(page: keyof Messages["titles"]) {
  return async (): Promise<Metadata> => {
    const t = await serverTranslator();
    return { title: t(`titles.${page}`) };
  };
}
