import { countTokens } from "./tokens.ts";

/** Prompt tokens of a chat request: the sum over message contents (text parts of multimodal content). */
export function chatPromptTokens(messages: unknown): number | null {
  if (!Array.isArray(messages) || messages.length === 0) return null;
  let n = 0;
  for (const m of messages) {
    if (!m || typeof m !== "object") return null;
    const c = (m as { content?: unknown }).content;
    if (typeof c === "string") n += countTokens(c);
    else if (Array.isArray(c)) for (const part of c) n += typeof part?.text === "string" ? countTokens(part.text) : 0;
    else if (c != null) return null;
  }
  return n;
}

export function promptText(prompt: unknown): string | null {
  if (typeof prompt === "string") return prompt;
  if (Array.isArray(prompt) && prompt.every((p) => typeof p === "string")) return prompt.join("\n");
  return null;
}

export function openAiError(status: number, message: string, type: string, param: string | null = null) {
  return { status, body: { error: { message, type, param, code: null } } };
}

/** How many tokens an answer has: the model "stops" at a length of its own choosing unless max_tokens cuts it. */
export function answerLength(seed: number, maxTokens: number): { tokens: number; finish: "stop" | "length" } {
  const natural = 16 + (seed % 113);
  return natural <= maxTokens ? { tokens: natural, finish: "stop" } : { tokens: maxTokens, finish: "length" };
}

/** A deterministic unit vector, so the same text always embeds the same way. */
export function embeddingOf(text: string, dims: number, seed: number): number[] {
  const v = new Array<number>(dims);
  let s = seed ^ text.length;
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    v[i] = (s / 2 ** 32) * 2 - 1;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i] = Math.round((v[i]! / norm) * 1e6) / 1e6;
  return v;
}
