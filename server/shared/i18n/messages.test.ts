import { describe, expect, it } from "vitest";
import { IntlMessageFormat } from "intl-messageformat";
import { MESSAGES } from "./messages.ts";

/** Every message as [dotted key, text]. */
function flatten(o: object, prefix = ""): [string, string][] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v] as [string, string]] : flatten(v as object, `${prefix}${k}.`)));
}

/** The ICU arguments a message takes ({what}, {count, plural, …}). */
function argsOf(text: string): string[] {
  return [...text.matchAll(/\{\s*([a-zA-Z_][\w]*)\s*[,}]/g)].map((m) => m[1]!).sort();
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
