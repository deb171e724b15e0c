/**
 * Request classes (their schema: `requestClasses` in schemas.ts): an endpoint's rules, tried in
 * order, that send a call on to another endpoint — long prompts to a large model, a header or a
 * `metadata` field naming a tier. The first rule that matches names the class (kept in the call
 * log, so cost can be broken down by it).
 */
import type { RequestClass } from "./schemas.ts";

/** What a class rule looks at in a call: its headers, its body. */
export interface ClassInput {
  header(name: string): string | undefined;
  body: Record<string, unknown>;
}

/** Characters per token the gateway assumes (OpenAI's rule of thumb for English; Turkish runs a little lower). */
export const CHARS_PER_TOKEN = 4;

/** The prompt's length in estimated tokens: its message (or prompt) text's characters ÷ CHARS_PER_TOKEN. */
export function estimatedPromptTokens(body: Record<string, unknown>): number {
  let chars = 0;
  const add = (v: unknown) => {
    if (typeof v === "string") chars += v.length;
    else if (Array.isArray(v)) for (const p of v) add(typeof p === "object" && p !== null ? (p as { text?: unknown }).text : p);
  };
  if (Array.isArray(body.messages)) for (const m of body.messages) add((m as { content?: unknown })?.content);
  else add(body.prompt);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function matches(rule: RequestClass["match"], call: ClassInput, tokens: () => number): boolean {
  switch (rule.kind) {
    case "prompt_tokens_over":
      return tokens() > rule.tokens;
    case "header":
      return call.header(rule.name) === rule.value;
    case "metadata": {
      const md = call.body.metadata;
      return typeof md === "object" && md !== null && (md as Record<string, unknown>)[rule.key] === rule.value;
    }
  }
}

/** The first class whose rule the call matches, or null. */
export function classify(classes: RequestClass[], call: ClassInput): RequestClass | null {
  let estimate: number | null = null;
  const tokens = () => (estimate ??= estimatedPromptTokens(call.body));
  for (const c of classes) if (matches(c.match, call, tokens)) return c;
  return null;
}
