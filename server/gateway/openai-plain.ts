import { chatBody, completionBody, embeddingBody } from "./openai-body.ts";

/**
 * The common OpenAI request, recognised by plain code on the hot path: a body this says yes to
 * is one the zod schemas (openai-body.ts) accept, so the gateway skips them; anything else (an
 * unusual parameter, a tool call, a content part, a value out of range) goes to zod, which accepts
 * it or builds OpenAI's error. It can only say yes too rarely, never wrongly: openai-plain.test.ts
 * checks every yes against the schemas.
 */

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nullish = (v: unknown) => v === null || v === undefined;
const str: Check = (v) => typeof v === "string";
const bool: Check = (v) => nullish(v) || typeof v === "boolean";
const optStr: Check = (v) => nullish(v) || typeof v === "string";
const intIn = (min: number, max = Number.MAX_SAFE_INTEGER): Check => (v) => nullish(v) || (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max);
const numIn = (min: number, max: number): Check => (v) => nullish(v) || (typeof v === "number" && Number.isFinite(v) && v >= min && v <= max);

const ROLES = new Set(["system", "developer", "user", "assistant"]);
/** A message of text alone, in a role that needs nothing else. */
const textMessage: Check = (m) => {
  if (!isObject(m) || !ROLES.has(m.role as string) || typeof m.content !== "string") return false;
  for (const k in m) if (k !== "role" && k !== "content" && !(k === "name" && typeof m.name === "string")) return false;
  return true;
};
const streamOptions: Check = (v) => nullish(v) || (isObject(v) && Object.keys(v).every((k) => k === "include_usage") && bool(v.include_usage));

const SAMPLING: Record<string, Check> = {
  model: (v) => typeof v === "string" && v.length > 0,
  max_tokens: intIn(1),
  n: intIn(1, 128),
  temperature: numIn(0, 2),
  top_p: numIn(0, 1),
  presence_penalty: numIn(-2, 2),
  frequency_penalty: numIn(-2, 2),
  seed: intIn(Number.MIN_SAFE_INTEGER),
  stop: optStr,
  stream: bool,
  stream_options: streamOptions,
  user: optStr,
};

const CHAT: Record<string, Check> = { ...SAMPLING, messages: (v) => Array.isArray(v) && v.length > 0 && v.every(textMessage), max_completion_tokens: intIn(1) };
const COMPLETION: Record<string, Check> = { ...SAMPLING, prompt: str, echo: bool };
const EMBEDDING: Record<string, Check> = {
  model: SAMPLING.model!,
  input: (v) => typeof v === "string" || (Array.isArray(v) && v.length > 0 && v.length <= 2048 && v.every(str)),
  user: optStr,
};

const RULES = {
  chat: { checks: CHAT, known: new Set(Object.keys(chatBody.shape)), required: ["model", "messages"] },
  completions: { checks: COMPLETION, known: new Set(Object.keys(completionBody.shape)), required: ["model", "prompt"] },
  embeddings: { checks: EMBEDDING, known: new Set(Object.keys(embeddingBody.shape)), required: ["model", "input"] },
} as const;

/** Whether the body is plainly valid: true only where the schema would accept it. */
export function plainlyValid(kind: keyof typeof RULES, body: unknown): boolean {
  if (!isObject(body)) return false;
  const { checks, known, required } = RULES[kind];
  for (const k of required) if (!(k in body)) return false;
  for (const k in body) {
    const check = checks[k];
    if (check) {
      if (!check(body[k])) return false;
    } else if (known.has(k)) return false; // a parameter the schema checks and this does not: zod decides
  }
  return true;
}
