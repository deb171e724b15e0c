import type { Locale } from "./locales.ts";
import { ASIDES_TR, EXACT_TR } from "./server/catalog-tr.ts";
import { THINGS_TR, UNITS_TR } from "./server/units.ts";

/**
 * The server's messages (zod's per-field reasons, typed errors) in the reader's language. The
 * server writes English; tRPC's error formatter passes what leaves through here. Fixed texts come
 * from the catalog; ranges, "not found" and stale edits by pattern; anything unknown stays English
 * rather than being guessed at.
 */
export function translateServerMessage(locale: Locale, text: string): string {
  if (locale === "en" || !text) return text;
  return toTurkish(text) ?? text;
}

const unit = (u: string | undefined) => (u ? ` ${UNITS_TR[u] ?? u}` : "");

const RULES: [RegExp, (m: RegExpExecArray) => string | null][] = [
  [/^at least ([\d.,]+)(?: (.+))?$/, (m) => (m[2] && !UNITS_TR[m[2]] ? null : `en az ${m[1]}${unit(m[2])}`)],
  [/^at most ([\d.,]+)(?: (.+))?$/, (m) => (m[2] && !UNITS_TR[m[2]] ? null : `en fazla ${m[1]}${unit(m[2])}`)],
  [/^([\d.,]+) to ([\d.,]+)(?: (.+))?$/, (m) => (m[3] && !UNITS_TR[m[3]] ? null : `${m[1]} ile ${m[2]} arası${unit(m[3])}`)],
  [/^(.+) not found$/, (m) => (THINGS_TR[m[1]!] ? `${THINGS_TR[m[1]!]} bulunamadı` : null)],
  [/^Someone else changed (.+) since you loaded it\. Review the current values and try again\.$/, (m) => `${m[1]}, siz yükledikten sonra başka biri tarafından değiştirildi. Güncel değerleri inceleyip yeniden deneyin.`],
  [/^Invalid input: expected (\w+), received (\w+)$/, (m) => `Geçersiz değer: ${m[1]} bekleniyordu, ${m[2]} geldi`],
  [/^Invalid option: expected one of (.+)$/, (m) => `Geçersiz seçenek: şunlardan biri olmalı: ${m[1]}`],
  [/^Invalid input$/, () => "Geçersiz değer"],
];

function toTurkish(text: string): string | null {
  const exact = EXACT_TR[text];
  if (exact) return exact;
  // "at most 182 days (6 months, …)": the range and its aside apart.
  const aside = /^(.+) \(([^()]+)\)$/.exec(text);
  if (aside && ASIDES_TR[aside[2]!]) {
    const head = toTurkish(aside[1]!);
    if (head) return `${head} (${ASIDES_TR[aside[2]!]})`;
  }
  for (const [re, make] of RULES) {
    const m = re.exec(text);
    const out = m && make(m);
    if (out) return out;
  }
  // "field: why", as a message names its field where no form shows it beside the field.
  const field = /^([A-Za-z][\w.]*): (.+)$/.exec(text);
  if (field) {
    const why = toTurkish(field[2]!);
    if (why) return `${field[1]}: ${why}`;
  }
  return null;
}
