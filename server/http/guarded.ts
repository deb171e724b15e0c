import { z } from "zod";
import type { Context } from "../trpc/context.ts";
import type { Actor } from "../auth/actor.ts";
import type { Permission } from "../auth/permissions.ts";
import { requirePermission } from "../auth/guard.ts";
import { httpStatusOf, isDomainError } from "../errors.ts";

export type GuardedContext = Context & { actor: Actor };

/**
 * A route handler's request, guarded the way a procedure is (server/trpc/init.ts): signed in,
 * holding `permission`, its query string and route params parsed by `input`; typed errors become
 * their HTTP status with the message, a 400 with zod's per-field messages. Unknown errors are a
 * logged 500 with a generic message.
 */
export async function handleGuarded<S extends z.ZodType>(
  ctx: Context,
  req: Request,
  params: Record<string, string>,
  guard: { permission: Permission; input: S },
  handle: (ctx: GuardedContext, input: z.output<S>) => Promise<Response>,
): Promise<Response> {
  try {
    const actor = requirePermission(ctx.actor, guard.permission);
    const parsed = guard.input.safeParse({ ...Object.fromEntries(new URL(req.url).searchParams), ...params });
    if (!parsed.success) {
      const fieldErrors = z.flattenError(parsed.error).fieldErrors;
      return Response.json({ error: `Invalid request: ${Object.keys(fieldErrors).join(", ")}.`, fieldErrors }, { status: 400 });
    }
    return await handle({ ...ctx, actor }, parsed.data);
  } catch (e) {
    if (isDomainError(e)) return Response.json({ error: e.message, fieldErrors: e.field ? { [e.field]: [e.message] } : null }, { status: httpStatusOf(e) });
    console.error("[route] unexpected error", e);
    return Response.json({ error: "Something went wrong on our side; it has been logged." }, { status: 500 });
  }
}
