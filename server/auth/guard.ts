import { ForbiddenError, UnauthenticatedError } from "../errors.ts";
import type { Actor } from "./actor.ts";
import { can, type Permission } from "./permissions.ts";

/**
 * The one check behind tRPC procedures (server/trpc/init.ts) and route handlers
 * (server/http/guarded.ts): signed in, and, when a permission is named, holding it.
 */
export function requirePermission(actor: Actor | null, permission?: Permission): Actor {
  if (!actor) throw new UnauthenticatedError("Sign in first.");
  if (permission && !can(actor.role, permission)) throw new ForbiddenError(`Your role (${actor.role}) may not ${permission.replace(":", " ")}.`);
  return actor;
}
