// Domain code throws these; server/trpc/init.ts maps them to tRPC codes in one place.

export class DomainError extends Error {}

/** The row does not exist, or belongs to another tenant (the two look the same on purpose). */
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** A unique value is taken, or the caller's view of the row is stale. */
export class ConflictError extends DomainError {
  readonly field?: string;
  readonly current?: unknown;
  constructor(message: string, opts: { field?: string; current?: unknown } = {}) {
    super(message);
    this.field = opts.field;
    this.current = opts.current;
  }
}

/** Input that passed its schema but breaks a rule that needs the database to check. */
export class InvalidInputError extends DomainError {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

export class ForbiddenError extends DomainError {}
