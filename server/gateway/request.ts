import type http from "node:http";
import { DomainError, InvalidInputError, TooLargeError } from "../errors.ts";

/** What an inference request asks for, which decides the checks its body gets. */
export type Kind = "chat" | "completions" | "embeddings" | "infer";

const OPENAI_ROUTES: Record<string, Kind> = { "/v1/chat/completions": "chat", "/v1/completions": "completions", "/v1/embeddings": "embeddings" };
const INFER_ROUTE = /^\/v2\/models\/([^/]+)(?:\/versions\/[^/]+)?\/infer$/;

/** The inference route a POST names: OpenAI's kinds, or KServe v2 infer with its endpoint in the path. */
export function inferenceRoute(method: string | undefined, path: string): { kind: Kind; slug: string | null } | null {
  if (method !== "POST") return null;
  const kind = OPENAI_ROUTES[path];
  if (kind) return { kind, slug: null };
  const infer = INFER_ROUTE.exec(path);
  return infer ? { kind: "infer", slug: decodeURIComponent(infer[1]!) } : null;
}

export function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > max) return Promise.reject(new TooLargeError(`The request body is ${declared} bytes; the limit is ${max} bytes.`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new TooLargeError(`The request body is larger than the limit of ${max} bytes.`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const v = JSON.parse(raw.toString("utf8"));
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new DomainError("The request body is not a JSON object.", { code: "invalid_json" });
}

/** The endpoint an OpenAI request names in `model`. */
export function modelOf(body: Record<string, unknown>): string {
  if (typeof body.model !== "string" || !body.model) throw new InvalidInputError("model", "model: required, the endpoint's name (e.g. chat).");
  return body.model;
}

/** The fields the gateway relies on, checked before anything is routed. */
export function validate(kind: Kind, b: Record<string, unknown>) {
  if (kind === "chat" && (!Array.isArray(b.messages) || b.messages.length === 0)) throw new InvalidInputError("messages", "messages: must be a non-empty array of {role, content}.");
  if (kind === "completions" && typeof b.prompt !== "string" && !(Array.isArray(b.prompt) && b.prompt.length)) throw new InvalidInputError("prompt", "prompt: must be a string or an array of strings.");
  if (kind === "embeddings" && typeof b.input !== "string" && !(Array.isArray(b.input) && b.input.length)) throw new InvalidInputError("input", "input: must be a string or a non-empty array.");
  if (b.stream !== undefined && typeof b.stream !== "boolean") throw new InvalidInputError("stream", "stream: must be true or false.");
  for (const f of ["max_tokens", "max_completion_tokens"]) {
    const v = b[f];
    if (v !== undefined && v !== null && (typeof v !== "number" || !Number.isInteger(v) || v < 1)) throw new InvalidInputError(f, `${f}: must be a positive integer.`);
  }
}
