import type { z } from "zod";
import { InvalidInputError } from "../errors.ts";
import type { EndpointConfig } from "./config.ts";
import type { Kind } from "./request.ts";
import { plainlyValid } from "./openai-plain.ts";
import { chatBody, completionBody, embeddingBody } from "./openai-body.ts";

type Issue = z.core.$ZodIssue & { input?: unknown };

/** OpenAI names a parameter by its path: `messages[0].content[1].type`. */
export function paramOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), "");
}

const quote = (v: unknown) => `'${typeof v === "string" ? v : JSON.stringify(v)}'`;
const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "number" ? (Number.isInteger(v) ? "an integer" : "a decimal") : typeof v === "object" ? "an object" : `a ${typeof v}`);
const EXPECTED: Record<string, string> = { string: "a string", int: "an integer", number: "a number", boolean: "a boolean", array: "an array", object: "an object" };
const expected = (e: string) => EXPECTED[e] ?? `a ${e}`;
const list = (xs: string[], last = "and") => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")}${xs.length > 2 ? "," : ""} ${last} ${xs.at(-1)}`);

/** Of a union's branches, the one that got furthest: an error inside a value beats "wrong type". */
function deepest(issue: Extract<Issue, { code: "invalid_union" }>): Issue | null {
  const branches = issue.errors.map((b) => b[0]).filter((i): i is Issue => !!i);
  const inner = branches.find((i) => i.code !== "invalid_type" || i.path.length > 0);
  return inner ? ({ ...inner, path: [...issue.path, ...inner.path] } as Issue) : null;
}

/** One zod issue as the error OpenAI would answer: its message, the parameter and OpenAI's code. */
export function openAiIssue(issue: Issue): InvalidInputError {
  const param = paramOf(issue.path);
  const input = issue.input;
  const err = (message: string, code: string) => new InvalidInputError(param, message, { code });
  switch (issue.code) {
    case "invalid_union": {
      const inner = deepest(issue);
      if (inner) return openAiIssue(inner);
      if (input === undefined) return err(`Missing required parameter: '${param}'.`, "missing_required_parameter");
      const kinds = [...new Set(issue.errors.map((b) => (b[0]?.code === "invalid_type" ? expected(String(b[0].expected)) : "another shape")))];
      return err(`Invalid type for '${param}': expected ${list(kinds, "or")}, but got ${typeName(input)} instead.`, "invalid_type");
    }
    case "invalid_type":
      if (input === undefined) return err(`Missing required parameter: '${param}'.`, "missing_required_parameter");
      return err(`Invalid type for '${param}': expected ${expected(String(issue.expected))}, but got ${typeName(input)} instead.`, "invalid_type");
    case "invalid_value":
      return err(`Invalid value: ${quote(input)}. Supported values are: ${list(issue.values.map(quote))}.`, "invalid_value");
    case "too_small":
    case "too_big": {
      const low = issue.code === "too_small";
      const bound = low ? (issue as { minimum: number | bigint }).minimum : (issue as { maximum: number | bigint }).maximum;
      if (issue.origin === "array") {
        if (low && Array.isArray(input) && input.length === 0) return err(`Invalid '${param}': empty array. Expected an array with minimum length ${bound}, but got an empty array instead.`, "empty_array");
        const len = Array.isArray(input) ? input.length : "?";
        return err(`Invalid '${param}': array too ${low ? "short" : "long"}. Expected an array with ${low ? "minimum" : "maximum"} length ${bound}, but got an array with length ${len} instead.`, `array_${low ? "below_min" : "above_max"}_length`);
      }
      if (issue.origin === "string") return err(`Invalid '${param}': string too ${low ? "short" : "long"}. Expected a string with ${low ? "minimum" : "maximum"} length ${bound}.`, `string_${low ? "below_min" : "above_max"}_length`);
      const kind = Number.isInteger(input) ? "integer" : "decimal";
      return err(`Invalid '${param}': ${kind} ${low ? "below minimum" : "above maximum"} value. Expected a value ${low ? ">=" : "<="} ${bound}, but got ${String(input)} instead.`, `${kind}_${low ? "below_min" : "above_max"}_value`);
    }
    default:
      return err(`Invalid '${param}': ${issue.message}.`, "invalid_value");
  }
}

const BODIES = { chat: chatBody, completions: completionBody, embeddings: embeddingBody } as const;

/** The smallest context length among the versions that take traffic: any of them may answer. */
function contextOf(e: EndpointConfig): number | null {
  const known = e.versions.filter((v) => v.weight > 0 && v.contextTokens !== null).map((v) => v.contextTokens!);
  return known.length ? Math.min(...known) : null;
}

/** Checks an OpenAI request body as OpenAI does, and max_tokens against the model's context; throws OpenAI's 400. */
export function validateOpenAi(kind: Exclude<Kind, "infer">, body: unknown, endpoint: EndpointConfig) {
  // The common body is checked by plain code; zod sees the rest, and builds every error.
  if (!plainlyValid(kind, body)) {
    const parsed = BODIES[kind].safeParse(body, { reportInput: true });
    if (!parsed.success) throw openAiIssue(parsed.error.issues[0] as Issue);
  }
  if (kind === "embeddings") return;
  const b = body as { max_tokens?: number | null; max_completion_tokens?: number | null };
  const context = contextOf(endpoint);
  for (const f of ["max_completion_tokens", "max_tokens"] as const) {
    const asked = b[f];
    if (context !== null && asked != null && asked > context) {
      throw new InvalidInputError(f, `${f} is too large: ${asked}. This model's maximum context length is ${context} tokens, so it can answer at most that many, whereas you asked for ${asked}.`, { code: "invalid_value" });
    }
  }
}
