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
  if (body.model === undefined || body.model === null) throw new InvalidInputError("model", "Missing required parameter: 'model'. Name the endpoint to call, e.g. chat.", { code: "missing_required_parameter" });
  if (typeof body.model !== "string" || !body.model) throw new InvalidInputError("model", `Invalid type for 'model': expected a string, the endpoint's name (e.g. chat).`, { code: "invalid_type" });
  return body.model;
}
