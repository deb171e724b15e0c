import type { Locale } from "./locales.ts";
import { ASIDES_TR, EXACT_TR } from "./server/catalog-tr.ts";
import { QUANTITIES, THINGS_TR, UNITS_TR, numbersTr } from "./server/units.ts";
import { ERROR_TEMPLATES_TR, WORDS_TR } from "./server/errors-tr.ts";
import { LOOSE_PHRASES_TR, PHRASES_TR, REASON_TEMPLATES_TR, reasonValueTr } from "./server/reasons-tr.ts";
import { MIG_TEMPLATES_TR } from "./server/mig-tr.ts";
import { BREACH_TEMPLATES_TR } from "./server/breaches-tr.ts";
import { REPLICA_TEMPLATES_TR } from "./server/replicas-tr.ts";

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
const num = (n: string) => numbersTr(n, true);

const RULES: [RegExp, (m: RegExpExecArray) => string | null][] = [
  [/^at least ([\d.,]+)(?: (.+))?$/, (m) => (m[2] && !UNITS_TR[m[2]] ? null : `en az ${num(m[1]!)}${unit(m[2])}`)],
  [/^at most ([\d.,]+)(?: (.+))?$/, (m) => (m[2] && !UNITS_TR[m[2]] ? null : `en fazla ${num(m[1]!)}${unit(m[2])}`)],
  [/^([\d.,]+) to ([\d.,]+)(?: (.+))?$/, (m) => (m[3] && !UNITS_TR[m[3]] ? null : `${num(m[1]!)} ile ${num(m[2]!)} arası${unit(m[3])}`)],
  [/^(.+) not found$/, (m) => (THINGS_TR[m[1]!] ? `${THINGS_TR[m[1]!]} bulunamadı` : null)],
  [/^Invalid input: expected (\w+), received (\w+)$/, (m) => `Geçersiz değer: ${m[1]} bekleniyordu, ${m[2]} geldi`],
  [/^Invalid option: expected one of (.+)$/, (m) => `Geçersiz seçenek: şunlardan biri olmalı: ${m[1]}`],
  [/^Invalid input$/, () => "Geçersiz değer"],
];

/** The typed errors' templates as patterns: each `{name}` matches what the sentence carries there, its numbers put back as Turkish writes them. */
const WORDS = new Set(["state", "which", "thing", "unit"]);
const TEMPLATES = ERROR_TEMPLATES_TR.map(([en, tr]) => {
  const names: string[] = [];
  const source = en.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? (names.push(part), "(.+?)") : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return { re: new RegExp(`^${source}$`), names, tr };
});

function fromTemplate(text: string): string | null {
  for (const { re, names, tr } of TEMPLATES) {
    const m = re.exec(text);
    if (!m) continue;
    const values = Object.fromEntries(names.map((n, i) => [n, WORDS.has(n) ? (WORDS_TR[m[i + 1]!] ?? m[i + 1]!) : numbersTr(m[i + 1]!, QUANTITIES.has(n))]));
    return tr.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? `{${n}}`);
  }
  return null;
}

/** Placeholders that hold one word (a hostname, a slug, a version, a GPU's index), so "{node} GPU {index}: …" takes no sentence for a name. */
const ONE_WORD = new Set(["node", "index", "endpoint", "version", "profile", "slot", "gpu"]);
const plainValue = (name: string, value: string) => (/[():]|\. /.test(value) || (ONE_WORD.has(name) && /\s/.test(value)) ? null : reasonValueTr(numbersTr(value, QUANTITIES.has(name))));

/** A composed reason's template parts: literal text at even indexes, placeholder names at odd ones. */
const REASONS = [...REASON_TEMPLATES_TR, ...MIG_TEMPLATES_TR, ...BREACH_TEMPLATES_TR, ...REPLICA_TEMPLATES_TR].map(([en, tr]) => ({ parts: en.split(/\{(\w+)\}/), tr }));

/**
 * Matches a reason against a template, trying every split a placeholder allows: a phrase must
 * itself translate (so "{reason} ({poolWhy})" finds the right parenthesis), a plain value (a count,
 * a name) holds no parenthesis, colon or sentence break (". ") of its own, and its numbers are
 * written the Turkish way.
 */
function matchReason(parts: string[], text: string, i = 0, values: Record<string, string> = {}): Record<string, string> | null {
  if (i >= parts.length) return text === "" ? values : null;
  if (i % 2 === 0) return text.startsWith(parts[i]!) ? matchReason(parts, text.slice(parts[i]!.length), i + 1, values) : null;
  const name = parts[i]!;
  const next = parts[i + 1] ?? "";
  for (let end = next ? text.indexOf(next, 1) : text.length; end > 0; end = next ? text.indexOf(next, end + 1) : -1) {
    const value = text.slice(0, end);
    const said = PHRASES_TR.has(name) ? toTurkish(value) : LOOSE_PHRASES_TR.has(name) ? (toTurkish(value) ?? WORDS_TR[value.replaceAll(" ", "_")] ?? value) : plainValue(name, value);
    const rest = said === null ? null : matchReason(parts, text.slice(end), i + 1, { ...values, [name]: said });
    if (rest) return rest;
  }
  return null;
}

function fromReason(text: string): string | null {
  for (const { parts, tr } of REASONS) {
    const values = matchReason(parts, text);
    if (values) return tr.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? `{${n}}`);
  }
  return null;
}

function toTurkish(text: string): string | null {
  const exact = EXACT_TR[text] ?? fromTemplate(text) ?? fromReason(text);
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
  // Clauses a reason strings together ("3 → 5: …; 2 still starting …; wanted 6, …"), each in turn.
  if (text.includes("; ")) {
    const clauses = text.split("; ").map(toTurkish);
    if (clauses.every((c) => c !== null)) return clauses.join("; ");
  }
  // Sentences a refusal strings together ("A cannot be placed elsewhere: …. B …"), each in turn.
  if (text.includes(". ")) {
    const sentences = text.split(". ").map(toTurkish);
    if (sentences.every((c) => c !== null)) return sentences.join(". ");
  }
  return null;
}
