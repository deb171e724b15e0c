import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z, ZodError } from "zod";
import type { Context } from "./context.ts";
import { can, type Permission } from "../auth/permissions.ts";
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from "../errors.ts";
import { Prisma } from "../db/generated/client.ts";
import { DriverError } from "../cluster/sim-driver.ts";

export interface FieldErrors {
  [field: string]: string[] | undefined;
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    let fieldErrors: FieldErrors | null = null;
    if (cause instanceof ZodError) fieldErrors = z.flattenError(cause).fieldErrors as FieldErrors;
    else if (cause instanceof InvalidInputError || (cause instanceof ConflictError && cause.field)) {
      fieldErrors = { [cause.field!]: [cause.message] };
    }
    const current = cause instanceof ConflictError ? (cause.current ?? null) : null;
    return { ...shape, data: { ...shape.data, stack: undefined, fieldErrors, current } };
  },
});

/** The one place domain errors become tRPC codes; anything unknown is a 500 with a generic message. */
function toTRPCError(e: unknown): TRPCError {
  if (e instanceof TRPCError) return e;
  if (e instanceof NotFoundError) return new TRPCError({ code: "NOT_FOUND", message: e.message, cause: e });
  if (e instanceof ConflictError) return new TRPCError({ code: "CONFLICT", message: e.message, cause: e });
  if (e instanceof InvalidInputError) return new TRPCError({ code: "BAD_REQUEST", message: `${e.field}: ${e.message}`, cause: e });
  if (e instanceof ForbiddenError) return new TRPCError({ code: "FORBIDDEN", message: e.message, cause: e });
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
    return new TRPCError({ code: "CONFLICT", message: "That value is already taken.", cause: e });
  }
  if (e instanceof DriverError) {
    const code = e.status === 404 ? "NOT_FOUND" : e.status === 409 ? "CONFLICT" : e.status === 400 ? "BAD_REQUEST" : e.status === 504 ? "GATEWAY_TIMEOUT" : "SERVICE_UNAVAILABLE";
    return new TRPCError({ code, message: e.message, cause: e });
  }
  if (e instanceof DomainError) return new TRPCError({ code: "BAD_REQUEST", message: e.message, cause: e });
  console.error("[trpc] unexpected error", e);
  return new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side; it has been logged." });
}

const mapErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok) throw toTRPCError(res.error.cause instanceof Error && !(res.error.cause instanceof ZodError) ? res.error.cause : res.error);
  return res;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapErrors);

export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** A procedure only roles holding `permission` may call; handlers never repeat the check. */
export function procedure(permission: Permission) {
  return signedInProcedure.use(({ ctx, next }) => {
    if (!can(ctx.actor.role, permission)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `Your role (${ctx.actor.role}) may not ${permission.replace(":", " ")}.` });
    }
    return next();
  });
}
