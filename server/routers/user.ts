import { procedure, router, signedInProcedure } from "../trpc/init.ts";
import { createUserInput, setRoleInput } from "../users/schemas.ts";
import { createUser, listUsers, setUserRole } from "../users/users.ts";
import { permissionsOf } from "../auth/permissions.ts";

export const userRouter = router({
  /** Who am I and what may I do: drives the navigation and which buttons show. */
  me: signedInProcedure.query(({ ctx }) => ({ ...ctx.actor, permissions: permissionsOf(ctx.actor.role) })),
  list: procedure("user:read").query(({ ctx }) => listUsers(ctx)),
  create: procedure("user:write").input(createUserInput).mutation(({ ctx, input }) => createUser(ctx, input)),
  setRole: procedure("user:write").input(setRoleInput).mutation(({ ctx, input }) => setUserRole(ctx, input)),
});
