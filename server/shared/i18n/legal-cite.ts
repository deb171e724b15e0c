import type { Locale } from "./locales.ts";

/**
 * What a legal sentence rests on: an article of Law 6698 (KVKK, Art. 6 and 9 as amended by Law
 * 7499), of the 2017 Regulation on Erasure, Destruction or Anonymisation of Personal Data, of Law
 * 5651, or a decision of the Personal Data Protection Board. A paragraph is given only where the
 * text was checked; otherwise the article alone.
 */
export type Cite =
  | { law: "kvkk" | "regulation"; article: number; paragraph?: number; item?: string; amendedBy7499?: boolean }
  /** Law 5651's traffic-log periods depend on the provider's kind (its Art. 5 or 6): the law is cited whole. */
  | { law: "law5651" }
  | { law: "board"; decision: string };

export const kvkkArt = (article: number, paragraph?: number, item?: string): Cite => ({ law: "kvkk", article, paragraph, item, amendedBy7499: article === 6 || article === 9 || undefined });
export const regulationArt = (article: number, paragraph?: number): Cite => ({ law: "regulation", article, paragraph });
export const law5651 = (): Cite => ({ law: "law5651" });
export const boardDecision = (decision: string): Cite => ({ law: "board", decision });

const NAMES: Record<Exclude<Cite["law"], "board">, Record<Locale, string>> = {
  kvkk: { en: "KVKK", tr: "KVKK" },
  regulation: { en: "Regulation", tr: "Yönetmelik" },
  law5651: { en: "Law 5651", tr: "5651 s. Kanun" },
};

/**
 * The short tag shown beside a sentence: "KVKK Art. 12(5)" / "KVKK m.12/5", "Art. 9(4)(c)" /
 * "m.9/4-c", "Board decision 2019/10" / "Kurul kararı 2019/10".
 */
export function formatCite(c: Cite, locale: Locale): string {
  if (c.law === "board") return locale === "tr" ? `Kurul kararı ${c.decision}` : `Board decision ${c.decision}`;
  if (c.law === "law5651") return NAMES.law5651[locale];
  const name = NAMES[c.law][locale];
  if (locale === "tr") return `${name} m.${c.article}${c.paragraph ? `/${c.paragraph}` : ""}${c.item ? `-${c.item}` : ""}`;
  return `${name} Art. ${c.article}${c.paragraph ? `(${c.paragraph})` : ""}${c.item ? `(${c.item})` : ""}`;
}

/** The tag's tooltip: the law's full name, and the amending law where it changed the article. */
export function citeTitle(c: Cite, locale: Locale): string {
  if (c.law === "board") return locale === "tr" ? "Kişisel Verileri Koruma Kurulu kararı" : "Decision of the Personal Data Protection Board";
  const full = {
    kvkk: { en: "Law 6698 on the Protection of Personal Data", tr: "6698 sayılı Kişisel Verilerin Korunması Kanunu" },
    regulation: { en: "Regulation on Erasure, Destruction or Anonymisation of Personal Data (2017)", tr: "Kişisel Verilerin Silinmesi, Yok Edilmesi veya Anonim Hale Getirilmesi Hakkında Yönetmelik (2017)" },
    law5651: { en: "Law 5651 on Regulating Publications on the Internet and Combating Crimes Committed by Means of Such Publications", tr: "5651 sayılı İnternet Ortamında Yapılan Yayınların Düzenlenmesi ve Bu Yayınlar Yoluyla İşlenen Suçlarla Mücadele Edilmesi Hakkında Kanun" },
  }[c.law][locale];
  if (c.law === "law5651" || !c.amendedBy7499) return full;
  return locale === "tr" ? `${full}, 7499 sayılı Kanunla değişik` : `${full}, as amended by Law 7499`;
}

/**
 * Whether a sentence that carries its citation in its own words (a drafted letter, a label such as
 * "Standard contract (Art. 9(4)(c))") names this one: the tag's spelling, or the form the texts
 * use ("Art. 12(5)", "md. 12(5)", "m. 12/5").
 */
export function citedInText(c: Cite, text: string, locale: Locale): boolean {
  if (c.law === "board") return text.includes(c.decision);
  if (c.law === "law5651") return text.includes("5651");
  const tail = (open: string, close: string, itemOpen: string, itemClose: string) => `${c.paragraph ? `${open}${c.paragraph}${close}` : ""}${c.item ? `${itemOpen}${c.item}${itemClose}` : ""}`;
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const forms =
    locale === "tr"
      ? [`m(?:d)?\\. ?${c.article}${esc(tail("(", ")", "(", ")"))}`, `m(?:d)?\\. ?${c.article}${esc(tail("/", "", "-", ""))}`]
      : [`Art(?:icle|\\.)? ?${c.article}${esc(tail("(", ")", "(", ")"))}`];
  const law = c.law === "regulation" ? (locale === "tr" ? "Yönetmeli" : "Regulation") : null;
  return forms.some((f) => new RegExp(`${f}(?![\\d(/])`).test(text)) && (!law || new RegExp(law).test(text));
}
