/**
 * The typed errors every part of Kule throws, and the one table that says what each is on the
 * wire. Domain code, the drivers, the simulator's control API and the gateway all throw these;
 * each boundary maps them once: tRPC codes in server/trpc/init.ts, HTTP statuses here (the
 * gateway, the simulator's API, the app's route handlers). A driver talking to another process
 * turns that process's HTTP status back into the same family (`errorFromStatus`).
 *
 * Boundaries recognise them with `isDomainError` / `isErrorKind`, by a brand, not `instanceof`:
 * Next bundles server modules more than once (the instrumentation hook and the routes), and a
 * shared driver built by one copy throws that copy's classes.
 */
export type ErrorKind = "invalid" | "unauthenticated" | "forbidden" | "not_found" | "conflict" | "too_large" | "rate_limited" | "upstream" | "unavailable" | "timeout";

export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
};

interface ErrorOptions {
  /** The input field at fault: forms show the message beside it, OpenAI's error names it as `param`. */
  field?: string | null;
  /** A stable code for API clients, e.g. OpenAI's `invalid_api_key` or `model_not_found`. */
  code?: string | null;
  /** Seconds after which trying again may succeed (`Retry-After`). */
  retryAfterSeconds?: number;
}

/** Input that breaks a rule (a 400); the base of the family. */
export class DomainError extends Error {
  readonly kuleDomainError = true;
  readonly kind: ErrorKind = "invalid";
  readonly field: string | null;
  readonly code: string | null;
  readonly retryAfterSeconds: number | null;
  constructor(message: string, opts: ErrorOptions = {}) {
    super(message);
    this.field = opts.field ?? null;
    this.code = opts.code ?? null;
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null;
  }
}

/** Input that passed its schema but breaks a rule that needs the database (or the cluster) to check. */
export class InvalidInputError extends DomainError {
  declare readonly field: string;
  constructor(field: string, message: string, opts: Omit<ErrorOptions, "field"> = {}) {
    super(message, { ...opts, field });
  }
}

/** The row does not exist, or belongs to another tenant (the two look the same on purpose). */
export class NotFoundError extends DomainError {
  override readonly kind = "not_found";
  /** `what` names the thing (`Tenant` → "Tenant not found"); `opts.message` replaces the sentence. */
  constructor(what: string, opts: ErrorOptions & { message?: string } = {}) {
    super(opts.message ?? `${what} not found`, opts);
  }
}

/** A unique value is taken, the caller's view of the row is stale, or the state forbids the change now. */
export class ConflictError extends DomainError {
  override readonly kind = "conflict";
  readonly current?: unknown;
  constructor(message: string, opts: ErrorOptions & { current?: unknown } = {}) {
    super(message, opts);
    this.current = opts.current;
  }
}

export class ForbiddenError extends DomainError {
  override readonly kind = "forbidden";
}

export class UnauthenticatedError extends DomainError {
  override readonly kind = "unauthenticated";
}

export class TooLargeError extends DomainError {
  override readonly kind = "too_large";
}

export class RateLimitedError extends DomainError {
  override readonly kind = "rate_limited";
}

/** Something Kule depends on (a replica, the simulator, Prometheus) answered badly. */
export class UpstreamError extends DomainError {
  override readonly kind = "upstream";
}

/** Nothing can serve this now; trying again later may work. */
export class UnavailableError extends DomainError {
  override readonly kind = "unavailable";
}

export class TimeoutError extends DomainError {
  override readonly kind = "timeout";
}

const BY_STATUS: Record<number, new (message: string) => DomainError> = {
  401: UnauthenticatedError,
  403: ForbiddenError,
  404: class extends NotFoundError {
    constructor(message: string) {
      super("", { message });
    }
  },
  409: ConflictError,
  413: TooLargeError,
  429: RateLimitedError,
  502: UpstreamError,
  504: TimeoutError,
};

/** The error another Kule process answered with, as the same typed error it threw there. */
export function errorFromStatus(status: number, message: string): DomainError {
  const E = BY_STATUS[status] ?? (status >= 500 ? UnavailableError : DomainError);
  return new E(message);
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof Error && (e as Partial<DomainError>).kuleDomainError === true;
}

export function isErrorKind(e: unknown, kind: ErrorKind): e is DomainError {
  return isDomainError(e) && e.kind === kind;
}

/** The HTTP status of any error: a typed one's, else 500. */
export function httpStatusOf(e: unknown): number {
  return isDomainError(e) ? HTTP_STATUS[e.kind] : 500;
}
