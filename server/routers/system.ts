import { router, signedInProcedure } from "../trpc/init.ts";
import { systemStatus } from "../system/status.ts";

export const systemRouter = router({
  status: signedInProcedure.query(({ ctx }) => systemStatus(ctx)),
});
