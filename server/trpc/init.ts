import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z, ZodError } from "zod";
import type { Context } from "./context.ts";
import type { Permission } from "../auth/permissions.ts";
import { requirePermission } from "../auth/guard.ts";
import { isDomainError, isErrorKind, type ConflictError, type ErrorKind } from "../errors.ts";
import { Prisma } from "../db/generated/client.ts";
import { traceProcedure } from "../telemetry/app-tracing.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";

export interface FieldErrors {
  [field: string]: string[] | undefined;
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause;
    let fieldErrors: FieldErrors | null = null;
    if (cause instanceof ZodError) fieldErrors = zodFieldErrors(cause);
    else if (isDomainError(cause) && cause.field) fieldErrors = { [cause.field]: [cause.message] };
    const current = isErrorKind(cause, "conflict") ? ((cause as ConflictError).current ?? null) : null;
    // Errors leave in the reader's language; the server and its logs keep English.
    const locale = ctx?.locale ?? "en";
    const say = (m: string) => translateServerMessage(locale, m);
    if (fieldErrors) for (const k of Object.keys(fieldErrors)) fieldErrors[k] = fieldErrors[k]?.map(say);
    return { ...shape, message: say(shape.message), data: { ...shape.data, stack: undefined, fieldErrors, current } };
  },
});

/** Zod's per-field messages; a key the call does not take is named as a field too. */
function zodFieldErrors(e: ZodError): FieldErrors {
  const fields = z.flattenError(e).fieldErrors as FieldErrors;
  for (const issue of e.issues) {
    if (issue.code !== "unrecognized_keys") continue;
    for (const key of issue.keys) (fields[key] ??= []).push("not a parameter of this call");
  }
  return fields;
}

const TRPC_CODE: Record<ErrorKind, TRPCError["code"]> = {
  invalid: "BAD_REQUEST",
  unauthenticated: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  too_large: "PAYLOAD_TOO_LARGE",
  rate_limited: "TOO_MANY_REQUESTS",
  upstream: "BAD_GATEWAY",
  unavailable: "SERVICE_UNAVAILABLE",
  timeout: "GATEWAY_TIMEOUT",
};

/** The one place typed errors become tRPC codes; anything unknown is a 500 with a generic message. */
function toTRPCError(e: unknown): TRPCError {
  if (e instanceof TRPCError) return e;
  if (isDomainError(e)) {
    // A field's message reads "field: why" where no form shows it beside the field.
    const message = e.field && e.kind === "invalid" ? `${e.field}: ${e.message}` : e.message;
    return new TRPCError({ code: TRPC_CODE[e.kind], message, cause: e });
  }
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
    return new TRPCError({ code: "CONFLICT", message: "That value is already taken.", cause: e });
  }
  // A transaction that could not start or finish in time (a database overloaded or away) rolled
  // back whole: nothing was written, and trying again is the way out.
  if (e instanceof Prisma.PrismaClientKnownRequestError && (e.code === "P2028" || e.code === "P2024" || e.code === "P1001" || e.code === "P1017")) {
    console.error("[trpc] database busy or away", e.code, e.message);
    return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "The database is busy or unreachable, so nothing was changed. Try again in a moment.", cause: e });
  }
  console.error("[trpc] unexpected error", e);
  return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side; it has been logged." });
}

const mapErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok) throw toTRPCError(res.error.cause instanceof Error && !(res.error.cause instanceof ZodError) ? res.error.cause : res.error);
  return res;
});

/** The procedure's span when the app traces (server/telemetry/app-tracing.ts); outside mapErrors, so it sees the mapped code. */
const traced = t.middleware(({ path, type, ctx, next }) => traceProcedure(path, type, ctx.actor?.role ?? null, () => next(), (res) => (res.ok ? null : res.error.code)));

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(traced).use(mapErrors);

export const signedInProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, actor: requirePermission(ctx.actor) } }));

/** A procedure only roles holding `permission` may call; handlers never repeat the check. */
export function procedure(permission: Permission) {
  return signedInProcedure.use(({ ctx, next }) => (requirePermission(ctx.actor, permission), next()));
}
