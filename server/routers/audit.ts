import { procedure, router } from "../trpc/init.ts";
import { listAuditInput } from "../audit/schemas.ts";
import { listAuditEvents } from "../audit/list.ts";

export const auditRouter = router({
  list: procedure("audit:read").input(listAuditInput).query(({ ctx, input }) => listAuditEvents(ctx, input)),
});
