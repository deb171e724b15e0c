import type http from "node:http";

/** OpenAI's error shape, so the official clients raise their typed errors (AuthenticationError, NotFoundError, RateLimitError…). */
export function openAiError(res: http.ServerResponse, status: number, message: string, extra: { type?: string; param?: string | null; code?: string | null; headers?: Record<string, string> } = {}) {
  const type = extra.type ?? (status === 401 ? "invalid_request_error" : status === 404 ? "invalid_request_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error");
  const body = JSON.stringify({ error: { message, type, param: extra.param ?? null, code: extra.code ?? null } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...extra.headers });
  res.end(body);
}

/** KServe v2's error shape. */
export function kserveError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const body = JSON.stringify({ error: message });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}
