import "server-only";
import type { z } from "zod";
import type { Permission } from "../auth/permissions.ts";
import { createRequestContext } from "../trpc/request-context.ts";
import { handleGuarded, type GuardedContext } from "./guarded.ts";

/** A Next route handler (GET) with the procedures' guard: the permission named here, input parsed by zod. */
export function guardedRoute<S extends z.ZodType>(permission: Permission, input: S, handle: (ctx: GuardedContext, input: z.output<S>) => Promise<Response>) {
  return async (req: Request, route: { params?: Promise<Record<string, string>> } = {}) =>
    handleGuarded(await createRequestContext(req.headers), req, (await route.params) ?? {}, { permission, input }, handle);
}
