import { boardDecision, kvkkArt, law5651, regulationArt, type Cite } from "./legal-cite.ts";

/**
 * Every message that makes a legal statement, with what it rests on: the one owner of "which
 * article says so". `shown` says where a reader finds the citation:
 * - "tag": beside the sentence, by components/ui/legal.tsx; the sentence itself names no article;
 * - "inline": in the sentence's own words (a letter Kule drafts, a printed policy, a label such as
 *   "Standard contract (Art. 9(4)(c))", a confirm dialog that cannot hold a tag);
 * - "row": a policy entry's field, whose row shows the citation in its legal-basis column.
 * `terms` are the law's concepts the sentence speaks of, checked in both languages against
 * LEGAL_TERMS. Tested by legal-sentences.test.ts.
 */
export type Concept = "dataSubject" | "controller" | "processor" | "destruction" | "erasure" | "anonymisation" | "transferAbroad" | "explicitConsent" | "special" | "board" | "authority";

export interface LegalSentence {
  cite: Cite[];
  shown: "tag" | "inline" | "row";
  terms?: Concept[];
}

/** The law's own words for each concept (Law 6698 and the Authority's English text), as they must appear. */
export const LEGAL_TERMS: Record<Concept, { en: RegExp; tr: RegExp }> = {
  dataSubject: { en: /data subject/i, tr: /ilgili kişi/i },
  controller: { en: /\bcontroller/i, tr: /veri sorumlusu/i },
  processor: { en: /\bprocessor\b/i, tr: /veri işleyen/i },
  destruction: { en: /destr(uction|oy)/i, tr: /[iİ]mha|yok ed/i },
  erasure: { en: /\beras(ure|e|ing|ed)\b/i, tr: /\bsil(me|in|ind)/i },
  anonymisation: { en: /anonymis/i, tr: /anonim hale getir/i },
  transferAbroad: { en: /abroad/i, tr: /yurt ?dışı/i },
  explicitConsent: { en: /explicit consent/i, tr: /açık rıza/i },
  special: { en: /special categor/i, tr: /özel nitelikli/i },
  board: { en: /\bBoard\b/, tr: /\bKurul/ },
  authority: { en: /\bAuthority\b/, tr: /\bKurum/ },
};

/**
 * Words the law does not use, or uses for something else, and the wrong statements the KVKK issue
 * named: each with what to say instead. Checked on every message, not only the table's.
 */
export const WRONG_TERMS: { en: [RegExp, string][]; tr: [RegExp, string][] } = {
  en: [
    [/data owner/i, "the law's term is data subject"],
    [/sensitive (personal )?data/i, "the law's term is special categories of personal data"],
    [/\bdata must stay in Turkey\b/i, "KVKK is no per-tenant option: it applies to every tenant; say what the contract or safeguard requires"],
    [/\bKVKK (tenant|option|mode|flag)\b/i, "KVKK is no per-tenant option"],
    [/\bAnonymi[sz]e\b(?! instead)/, "a keyed hash or a replaced id is pseudonymisation; anonymisation is the Regulation's Art. 10 method"],
    [/(hash|HMAC|pseudonym)[^.]{0,40}anonym|anonym[^.]{0,20}(hash|HMAC)/i, "a keyed hash is pseudonymisation, not anonymisation"],
    [/transfer register \((KVKK )?Art(icle|\.)? ?9\)/i, "Art. 9 names no register; a count of calls served abroad is Kule's record"],
  ],
  tr: [
    [/veri sahibi/i, "Kanunun terimi ilgili kişi"],
    [/hassas (kişisel )?veri/i, "Kanunun terimi özel nitelikli kişisel veri"],
    [/anonimleştir/i, "Kanunun ve Yönetmeliğin terimi anonim hale getirme"],
    [/veri işleyici|veri işlemci/i, "Kanunun terimi veri işleyen"],
    [/veri denetleyici|veri kontrolörü/i, "Kanunun terimi veri sorumlusu"],
    [/aktarım sicili \((KVKK )?md\. ?9\)/i, "md. 9 bir sicil öngörmez"],
  ],
};

/** Destruction records: the Regulation says at least three years, never a fixed three. */
export const RECORDS_PERIOD = { en: /destruction records?[^.]*\b(3|three) years/i, tr: /[iİ]mha kayıt\w*[^.]*\b(3|üç) yıl/i, atLeast: { en: /at least (3|three) years/i, tr: /en az (3|üç) yıl/i } };

const art9 = kvkkArt(9);
const policyRow = (cite: Cite[], terms?: Concept[]): LegalSentence => ({ cite, shown: "row", terms });

export const LEGAL_SENTENCES = {
  "kvkk.page.intro": { cite: [kvkkArt(7), art9, kvkkArt(11), kvkkArt(13)], shown: "tag", terms: ["transferAbroad", "destruction", "dataSubject"] },
  "kvkk.breaches.title": { cite: [kvkkArt(12, 5)], shown: "tag" },
  "kvkk.breaches.intro": { cite: [kvkkArt(12, 5), boardDecision("2019/10")], shown: "tag", terms: ["controller", "board", "dataSubject", "processor"] },
  "kvkk.safeguards.title": { cite: [art9], shown: "tag", terms: ["transferAbroad"] },
  "kvkk.safeguards.intro": { cite: [kvkkArt(9, 4), kvkkArt(9, 5)], shown: "tag", terms: ["authority", "transferAbroad"] },
  "kvkk.mechanisms.adequacy": { cite: [kvkkArt(9, 1)], shown: "inline" },
  "kvkk.mechanisms.standard_contract": { cite: [kvkkArt(9, 4, "c")], shown: "inline" },
  "kvkk.mechanisms.bcr": { cite: [kvkkArt(9, 4, "b")], shown: "inline" },
  "kvkk.residency.incidents": { cite: [art9], shown: "tag" },
  "kvkk.transfers.title": { cite: [art9], shown: "tag", terms: ["transferAbroad"] },
  "kvkk.retention.intro": { cite: [regulationArt(11), regulationArt(7, 3)], shown: "tag", terms: ["destruction"] },
  "kvkk.retention.specialCeiling": { cite: [kvkkArt(4, 2, "d"), kvkkArt(7)], shown: "inline", terms: ["special"] },
  "kvkk.retention.confirmAnonymise": { cite: [regulationArt(10)], shown: "inline", terms: ["anonymisation", "erasure"] },
  "kvkk.methods.delete": { cite: [regulationArt(8)], shown: "inline", terms: ["erasure"] },
  "kvkk.methods.anonymize": { cite: [regulationArt(10)], shown: "inline", terms: ["anonymisation"] },
  "kvkk.methods.unlink": { cite: [law5651()], shown: "inline" },
  "kvkk.destructions.emptyHint": { cite: [regulationArt(7, 3)], shown: "tag", terms: ["dataSubject", "erasure"] },
  "kvkk.applications.intro": { cite: [kvkkArt(13, 2), kvkkArt(13, 3)], shown: "tag", terms: ["controller", "dataSubject", "board"] },
  "kvkk.applications.right": { cite: [kvkkArt(11)], shown: "inline" },
  "kvkk.rights.erasure": { cite: [kvkkArt(7)], shown: "inline", terms: ["erasure", "destruction"] },
  "kvkk.controller.intro": { cite: [kvkkArt(3), kvkkArt(12, 2)], shown: "tag", terms: ["controller", "processor"] },
  "kvkk.controller.served": { cite: [art9], shown: "tag" },
  "kvkk.controller.transfersTitle": { cite: [art9], shown: "tag", terms: ["transferAbroad"] },
  "kvkk.policy.subtitle": { cite: [regulationArt(5), regulationArt(6)], shown: "inline", terms: ["destruction", "erasure", "anonymisation"] },
  "kvkk.policy.cycle": { cite: [regulationArt(11)], shown: "inline", terms: ["destruction"] },
  "kvkk.policy.trafficMin": { cite: [law5651()], shown: "inline" },
  "kvkk.policy.noTrafficMin": { cite: [law5651()], shown: "inline" },
  "kvkk.policy.recordsKept": { cite: [regulationArt(7, 3)], shown: "inline", terms: ["destruction"] },
  "kvkk.keys.title": { cite: [kvkkArt(12, 1)], shown: "tag" },
  "kvkk.special.title": { cite: [kvkkArt(6)], shown: "tag", terms: ["special"] },
  "kvkk.special.intro": { cite: [kvkkArt(6, 3), kvkkArt(9, 6, "a")], shown: "tag", terms: ["special", "explicitConsent", "transferAbroad"] },
  "kvkk.special.consent": { cite: [kvkkArt(6, 3)], shown: "inline" },
  "kvkk.special.consentLabel": { cite: [kvkkArt(6, 3)], shown: "inline" },
  "kvkkController.specialConsent": { cite: [kvkkArt(6, 3)], shown: "inline", terms: ["transferAbroad"] },
  "kvkkController.specialTurkeyOnly": { cite: [kvkkArt(6, 3)], shown: "inline", terms: ["transferAbroad"] },
  "kvkkController.verbis": { cite: [kvkkArt(16)], shown: "inline" },
  "kvkkController.agreement": { cite: [kvkkArt(12, 2)], shown: "inline" },
  "kvkkController.special": { cite: [kvkkArt(6)], shown: "inline", terms: ["special"] },
  "kvkkController.rangeSpecial": { cite: [kvkkArt(6)], shown: "inline", terms: ["special"] },
  "kvkkController.specialEndpoints": { cite: [kvkkArt(6)], shown: "inline", terms: ["special"] },
  "kvkkController.rangeWithMin": { cite: [law5651()], shown: "inline" },
  "kvkk.subject.kept": { cite: [law5651()], shown: "inline" },
  "kvkkTexts.erasureHeld": { cite: [kvkkArt(5, 2, "e"), kvkkArt(13, 3)], shown: "inline", terms: ["erasure"] },
  "kvkkTexts.erasureKept": { cite: [law5651()], shown: "inline" },
  "kvkkTexts.breachNotice.to": { cite: [boardDecision("2019/10")], shown: "inline", terms: ["controller"] },
  "kvkkTexts.breachNotice.board": { cite: [boardDecision("2019/10")], shown: "inline", terms: ["controller", "board"] },
  "kvkkTexts.policy.call_log.legalBasis": { cite: [kvkkArt(5, 2, "c"), kvkkArt(5, 2, "ç"), kvkkArt(5, 2, "f"), law5651()], shown: "inline" },
  "kvkkTexts.policy.call_log.periodReason": policyRow([law5651()]),
  "kvkkTexts.policy.audit_ip.legalBasis": { cite: [kvkkArt(5, 2, "f"), kvkkArt(12)], shown: "inline" },
  "kvkkTexts.policy.exports.legalBasis": { cite: [kvkkArt(5, 2, "c"), kvkkArt(11)], shown: "inline", terms: ["dataSubject"] },
  "kvkkTexts.policy.subject_requests.purpose": { cite: [kvkkArt(11)], shown: "inline" },
  "kvkkTexts.policy.subject_requests.legalBasis": { cite: [kvkkArt(5, 2, "ç"), kvkkArt(5, 2, "e")], shown: "inline" },
  "kvkkTexts.policy.destruction_records.legalBasis": { cite: [regulationArt(7, 3)], shown: "inline", terms: ["destruction", "erasure", "anonymisation"] },
  "kvkkTexts.policy.destruction_records.periodReason": policyRow([regulationArt(7, 3)]),
  "kvkkTexts.policy.transfer_register.purpose": { cite: [art9], shown: "inline", terms: ["transferAbroad"] },
  "kvkkTexts.policy.transfer_register.legalBasis": { cite: [art9, kvkkArt(12)], shown: "inline" },
} satisfies Record<string, LegalSentence>;

export type LegalKey = keyof typeof LEGAL_SENTENCES;

/**
 * Messages that mention the law, a deadline or the Board without stating a rule of their own: the
 * clock's states and the words of a status, whose rule is stated (and cited) in the key named.
 */
export const NOT_LEGAL_SENTENCES: Record<string, string> = {
  "kvkk.breaches.late": "the clock's state; the rule is kvkk.breaches.intro",
  "kvkk.breaches.hoursLeft": "the clock's state; the rule is kvkk.breaches.intro",
  "kvkk.breaches.created": "the toast after recording an incident; the rule is kvkk.breaches.intro",
  "kvkk.safeguards.overdue": "the notification's state; the rule is kvkk.safeguards.intro",
  "kvkk.safeguards.notifiedToAuthority": "a column header; the rule is kvkk.safeguards.intro",
  "kvkkTexts.policy.subject_requests.periodReason": "Kule's own period for applications, not the Regulation's for destruction records",
};

/** The sentences whose citation components/ui/legal.tsx shows beside them. */
export const TAGGED_KEYS = (Object.keys(LEGAL_SENTENCES) as LegalKey[]).filter((k) => LEGAL_SENTENCES[k].shown === "tag");
