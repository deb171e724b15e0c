import { describe, expect, it } from "vitest";
import { plainlyValid } from "./openai-plain.ts";
import { chatBody, completionBody, embeddingBody } from "./openai-body.ts";

const SCHEMAS = { chat: chatBody, completions: completionBody, embeddings: embeddingBody } as const;

// Values to try in every parameter: right, wrong, at and past the bounds.
const VALUES: unknown[] = [null, undefined, true, false, 0, 1, -1, 0.5, 1.5, 2, 2.5, 3, 128, 129, -2.5, 1e20, 2 ** 53, "", "x", "chat", [], ["a"], ["a", "b", "c", "d", "e"], [1, 2], {}, { include_usage: true }, { include_usage: "yes" }, { other: 1 }];
const MESSAGES: unknown[] = [
  [{ role: "user", content: "hi" }],
  [{ role: "system", content: "be brief" }, { role: "user", content: "hi", name: "ayse" }],
  [{ role: "tool", content: "42" }],
  [{ role: "assistant", content: null }],
  [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  [{ role: "robot", content: "hi" }],
  [{ role: "user", content: "hi", name: 7 }],
  [],
  "hi",
];
const BASE = {
  chat: { model: "chat", messages: [{ role: "user", content: "hi" }] },
  completions: { model: "chat", prompt: "Once upon" },
  embeddings: { model: "embed", input: ["a", "b"] },
} as const;

/** Every body the plain check says yes to must be one the schema accepts; each mutation of a base body is tried. */
function mutations(kind: keyof typeof BASE): unknown[] {
  const keys = [...Object.keys(SCHEMAS[kind].shape), "top_k", "guided_json"];
  const out: unknown[] = [BASE[kind], null, [], "body", {}];
  for (const k of keys) for (const v of k === "messages" ? MESSAGES : VALUES) out.push({ ...BASE[kind], [k]: v });
  for (const k of Object.keys(BASE[kind])) {
    const rest: Record<string, unknown> = { ...BASE[kind] };
    delete rest[k];
    out.push(rest);
  }
  return out;
}

describe("the plain check of an OpenAI body", () => {
  for (const kind of ["chat", "completions", "embeddings"] as const) {
    it(`never says yes to a ${kind} body the schema refuses`, () => {
      let yes = 0;
      for (const body of mutations(kind)) {
        if (!plainlyValid(kind, body)) continue;
        yes++;
        expect(SCHEMAS[kind].safeParse(body).success, JSON.stringify(body)).toBe(true);
      }
      expect(yes).toBeGreaterThan(20);
    });
  }

  it("says yes to what the openai client sends for a chat, so the hot path skips zod", () => {
    const body = { model: "chat", messages: [{ role: "system", content: "Kısa yanıtla." }, { role: "user", content: "Merhaba" }], max_tokens: 64, temperature: 0.7, top_p: 1, stream: true, stream_options: { include_usage: true }, user: "u-1", top_k: 40 };
    expect(plainlyValid("chat", body)).toBe(true);
    expect(plainlyValid("embeddings", { model: "embed", input: "tek cümle", encoding_format: "float" })).toBe(false); // zod checks the enum
  });
});
