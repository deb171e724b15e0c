import type { GatewayCall } from "./call.ts";

/** A streamed event that carries text: chat deltas' `content` or legacy completions' `text`, not empty. */
export const FIRST_TOKEN = /"(content|text)":"[^"]/;

/** Token counts from an answer's `usage` object, found by pattern rather than parsing the whole answer. */
const PROMPT_TOKENS = /"prompt_tokens"\s*:\s*(\d+)/;
const COMPLETION_TOKENS = /"completion_tokens"\s*:\s*(\d+)/;

export function readUsage(text: string, call: GatewayCall) {
  const at = text.lastIndexOf('"usage"');
  if (at < 0) return; // an answer without usage logs zero tokens
  const tail = text.slice(at);
  call.promptTokens = Number(PROMPT_TOKENS.exec(tail)?.[1] ?? 0);
  call.completionTokens = Number(COMPLETION_TOKENS.exec(tail)?.[1] ?? 0);
}

/** The usage of a stream, from its `data:` events that carry one. */
export function readSseUsage(text: string, call: GatewayCall) {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: {") || !line.includes('"usage"')) continue;
    readUsage(line.slice(6), call);
  }
}
