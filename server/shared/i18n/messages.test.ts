import { describe, expect, it } from "vitest";
import { IntlMessageFormat } from "intl-messageformat";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { MESSAGES } from "./messages.ts";

/** Every message as [dotted key, text]. */
function flatten(o: object, prefix = ""): [string, string][] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v] as [string, string]] : flatten(v as object, `${prefix}${k}.`)));
}

/** The ICU arguments a message takes ({what}, {count, plural, …}), from the parsed message (a word inside a plural branch is text, not an argument). */
function argsOf(text: string): string[] {
  const names = new Set<string>();
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) names.add(el.value);
      if (el.type === TYPE.select || el.type === TYPE.plural) {
        names.add(el.value);
        for (const o of Object.values(el.options)) walk(o.value);
      }
      if (el.type === TYPE.tag) walk(el.children);
    }
  };
  walk(parse(text));
  return [...names].sort();
}

const en = new Map(flatten(MESSAGES.en));
const tr = new Map(flatten(MESSAGES.tr));

describe("translations", () => {
  it("Turkish has every English key and no other", () => {
    expect([...tr.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it("every message parses as ICU in its language and takes the same arguments in both", () => {
    for (const [key, text] of en) {
      const other = tr.get(key)!;
      expect(() => new IntlMessageFormat(text, "en"), key).not.toThrow();
      expect(() => new IntlMessageFormat(other, "tr"), key).not.toThrow();
      expect(argsOf(other), key).toEqual(argsOf(text));
    }
  });

  it("no sentence is left in English in the Turkish messages", () => {
    // Names, codes and single words that read the same in both (KVKK, GPU, PromQL…) may match;
    // a phrase of three words or more that matches was copied, not translated.
    const copied = [...en].filter(([key, text]) => tr.get(key) === text && text.trim().split(/\s+/).length >= 3).map(([key]) => key);
    expect(copied).toEqual([]);
  });

  it("no message is empty", () => {
    expect([...en, ...tr].filter(([, text]) => !text.trim()).map(([k]) => k)).toEqual([]);
  });
});
