import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages.ts";
import { LOCALES } from "./locales.ts";
import { citedInText, citeTitle, formatCite, kvkkArt, law5651, regulationArt, boardDecision } from "./legal-cite.ts";
import { LEGAL_SENTENCES, LEGAL_TERMS, NOT_LEGAL_SENTENCES, RECORDS_PERIOD, TAGGED_KEYS, WRONG_TERMS, type LegalKey, type LegalSentence } from "./legal-sentences.ts";

const root = path.resolve(import.meta.dirname, "../../..");
/** The namespaces that speak of the law: the KVKK pages, the tenant's record, the texts Kule drafts, the export headers. */
const LEGAL_NAMESPACES = ["kvkk", "kvkkController", "kvkkTexts", "exportFiles"];
/** A message states a legal rule when it cites a law, an article or the Board, or names a legal period. */
const STATES_LAW = {
  en: /KVKK (Art|md)|\bArt\.|Article \d|\bLaw \d|Regulation|Board decision|72 hours|within \d+ (days|business days)|\d+ years|\bAuthority\b/i,
  tr: /\bmd?\. ?\d|sayılı Kanun|s\. Kanun|Yönetmeli|Kurul kararı|2019\/10|72 saat|\d+ (gün|iş günü) içinde|\d+ yıl|\bKurum'a/i,
};

function leaves(o: unknown, p = ""): [string, string][] {
  if (typeof o === "string") return [[p, o]];
  if (!o || typeof o !== "object") return [];
  return Object.entries(o).flatMap(([k, v]) => leaves(v, p ? `${p}.${k}` : k));
}
const text = (locale: "en" | "tr", key: string) => key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], MESSAGES[locale]) as string;
const entries = Object.entries(LEGAL_SENTENCES) as [LegalKey, LegalSentence][];

describe("legal sentences and the articles they rest on", () => {
  it("lists every message that states a legal rule, in either language (a new one without its citation fails here)", () => {
    const missing: string[] = [];
    for (const locale of LOCALES)
      for (const ns of LEGAL_NAMESPACES)
        for (const [key, value] of leaves(MESSAGES[locale][ns as keyof (typeof MESSAGES)["en"]], ns))
          if (STATES_LAW[locale].test(value) && !(key in LEGAL_SENTENCES) && !(key in NOT_LEGAL_SENTENCES)) missing.push(`${locale} ${key}: ${value}`);
    expect(missing).toEqual([]);
    for (const [key, { cite }] of entries) {
      expect(typeof text("en", key), key).toBe("string");
      expect(typeof text("tr", key), key).toBe("string");
      expect(cite.length, key).toBeGreaterThan(0);
    }
  });

  it("uses the law's own terms in English and in Turkish", () => {
    const wrong: string[] = [];
    for (const [key, { terms = [] }] of entries)
      for (const concept of terms)
        for (const locale of LOCALES) if (!LEGAL_TERMS[concept][locale].test(text(locale, key))) wrong.push(`${locale} ${key} lacks the term for ${concept}: ${text(locale, key)}`);
    expect(wrong).toEqual([]);
  });

  it("says none of the wrong things, on any page: not a per-tenant KVKK, not 'anonymise' for a hash, not a 'transfer register (Art. 9)', not a fixed 3 years for destruction records", () => {
    const found: string[] = [];
    for (const locale of LOCALES)
      for (const [key, value] of leaves(MESSAGES[locale])) {
        for (const [rx, why] of WRONG_TERMS[locale]) if (rx.test(value)) found.push(`${locale} ${key}: ${why}: ${value}`);
        if (RECORDS_PERIOD[locale].test(value) && !RECORDS_PERIOD.atLeast[locale].test(value)) found.push(`${locale} ${key}: destruction records are kept at least 3 years (Regulation Art. 7(3))`);
      }
    expect(found).toEqual([]);
  });

  it("the wrong-terms check catches what the KVKK issue found", () => {
    const hits = (locale: "en" | "tr", s: string) => WRONG_TERMS[locale].some(([rx]) => rx.test(s)) || (RECORDS_PERIOD[locale].test(s) && !RECORDS_PERIOD.atLeast[locale].test(s));
    expect(hits("en", "KVKK: data must stay in Turkey")).toBe(true);
    expect(hits("en", "Anonymize")).toBe(true);
    expect(hits("en", "the user field is stored as an anonymised HMAC")).toBe(true);
    expect(hits("en", "Transfer register (Article 9)")).toBe(true);
    expect(hits("en", "Destruction records are kept 3 years.")).toBe(true);
    expect(hits("tr", "İmha kayıtları 3 yıl saklanır.")).toBe(true);
    expect(hits("tr", "veri sahibinin başvurusu")).toBe(true);
    expect(hits("en", "Destruction records are kept at least 3 years.")).toBe(false);
  });

  it("names the citation in the sentence's own words where it is shown inline, and nowhere else for a tagged one", () => {
    const bad: string[] = [];
    const ARTICLE = { en: /\bArt\.|Article \d|Board decision|\bLaw \d{4}\b(?! on)/, tr: /\bmd?\. ?\d|Kurul kararı|\d{4} sayılı Kanun(?!u\b)/ };
    for (const [key, { cite, shown }] of entries)
      for (const locale of LOCALES) {
        const value = text(locale, key);
        if (shown === "inline") for (const c of cite) if (!citedInText(c, value, locale)) bad.push(`${locale} ${key} does not name ${formatCite(c, locale)}: ${value}`);
        if (shown === "row") {
          const basis = text(locale, key.replace(/\.\w+$/, ".legalBasis"));
          for (const c of cite) if (!citedInText(c, basis, locale)) bad.push(`${locale} ${key}'s row does not name ${formatCite(c, locale)}`);
        }
        if (shown === "tag" && ARTICLE[locale].test(value)) bad.push(`${locale} ${key} names an article in its text and beside it: ${value}`);
      }
    expect(bad).toEqual([]);
  });

  it("shows each tagged sentence through the one component that puts its article beside it", () => {
    const sources = ["components", "app"].flatMap((dir) => fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith(".tsx")).map((f) => fs.readFileSync(path.join(f.parentPath, f.name), "utf8"))).join("\n");
    const unshown = TAGGED_KEYS.filter((k) => !sources.includes(`<Legal id="${k}"`));
    expect(unshown).toEqual([]);
  });

  it("rests each corrected statement on what the law says (the KVKK second pass)", () => {
    const cites = (k: LegalKey) => LEGAL_SENTENCES[k].cite.map((c) => formatCite(c, "en"));
    // The special-category ceiling is Kule's own policy under the storage-limitation principle, not a rule of Art. 6.
    expect(cites("kvkk.retention.specialCeiling")).toEqual(["KVKK Art. 4(2)(d)", "KVKK Art. 7"]);
    // After Law 7499 special categories go abroad under a safeguard and an Art. 6(3) condition; consent is the incidental route.
    expect(cites("kvkk.special.intro")).toEqual(["KVKK Art. 6(3)", "KVKK Art. 9(6)(a)"]);
    // A processor's notice to its controller rests on the Board's decision and the contract, not Art. 12(5).
    expect(cites("kvkkTexts.breachNotice.to")).toEqual(["Board decision 2019/10"]);
    expect(text("en", "kvkkTexts.breachNotice.to")).not.toMatch(/12\(5\)/);
    expect(citeTitle(law5651(), "tr")).toBe("5651 sayılı İnternet Ortamında Yapılan Yayınların Düzenlenmesi ve Bu Yayınlar Yoluyla İşlenen Suçlarla Mücadele Edilmesi Hakkında Kanun");
    // Staff other than admins see special-category rows masked; the tenant's record says who does not.
    expect(text("en", "kvkkController.specialValue")).toMatch(/except admins/);
  });

  it("writes a citation the way each language does", () => {
    expect(formatCite(kvkkArt(12, 5), "en")).toBe("KVKK Art. 12(5)");
    expect(formatCite(kvkkArt(12, 5), "tr")).toBe("KVKK m.12/5");
    expect(formatCite(kvkkArt(9, 4, "c"), "tr")).toBe("KVKK m.9/4-c");
    expect(formatCite(regulationArt(7, 3), "en")).toBe("Regulation Art. 7(3)");
    expect(formatCite(regulationArt(7, 3), "tr")).toBe("Yönetmelik m.7/3");
    expect(formatCite(boardDecision("2019/10"), "tr")).toBe("Kurul kararı 2019/10");
    expect(citedInText(kvkkArt(12, 5), "dikkatine (KVKK md. 12(5)):", "tr")).toBe(true);
    expect(citedInText(kvkkArt(12), "dikkatine (KVKK md. 12(5)):", "tr")).toBe(false);
    expect(citedInText(regulationArt(7, 3), "kept at least 3 years (Art. 7(3))", "en")).toBe(false);
  });
});
