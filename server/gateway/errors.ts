import type http from "node:http";
import { httpStatusOf, type DomainError } from "../errors.ts";
import type { Api } from "./call.ts";

/** OpenAI's error shape, so the official clients raise their typed errors (AuthenticationError, NotFoundError, RateLimitError…). */
function openAiError(res: http.ServerResponse, status: number, message: string, extra: { type?: string; param?: string | null; code?: string | null; headers?: Record<string, string> } = {}) {
  const type = extra.type ?? (status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error");
  const body = JSON.stringify({ error: { message, type, param: extra.param ?? null, code: extra.code ?? null } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...extra.headers });
  res.end(body);
}

/** KServe v2's error shape. */
function kserveError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const body = JSON.stringify({ error: message });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A typed error as the API the request came in on answers it, `Retry-After` included. */
export function sendError(res: http.ServerResponse, api: Api, err: DomainError, status = httpStatusOf(err)) {
  const headers: Record<string, string> = err.retryAfterSeconds === null ? {} : { "retry-after": String(Math.ceil(err.retryAfterSeconds)) };
  if (api === "kserve") kserveError(res, status, err.message, headers);
  else openAiError(res, status, err.message, { param: err.field, code: err.code, headers });
}

/** The call log's error class of a refusal the gateway made itself. */
export function errorClassOf(status: number): string {
  if (status === 401) return "auth";
  if (status === 404) return "not_found";
  if (status === 413) return "too_large";
  if (status === 429) return "rate_limited";
  if (status === 400) return "bad_request";
  return status >= 500 ? "gateway_error" : "client_error";
}
