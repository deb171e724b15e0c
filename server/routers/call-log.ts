import { procedure, router } from "../trpc/init.ts";
import { noInput } from "../schemas/common.ts";
import { getCallInput, listCallsInput } from "../call-log/schemas.ts";
import { listCalls } from "../call-log/list.ts";
import { getCall } from "../call-log/get.ts";
import { exportIdInput, startExportInput } from "../call-log/export/schemas.ts";
import { getExport, listExports, startExport } from "../call-log/export/jobs.ts";
import { sealStatus, verifyChainFor } from "../audit/chain.ts";

export const callLogRouter = router({
  list: procedure("call-log:read").input(listCallsInput).query(({ ctx, input }) => listCalls(ctx, input)),
  get: procedure("call-log:read").input(getCallInput).query(({ ctx, input }) => getCall(ctx, input)),
  export: router({
    start: procedure("call-log:export").input(startExportInput).mutation(({ ctx, input }) => startExport(ctx, input)),
    get: procedure("call-log:export").input(exportIdInput).query(({ ctx, input }) => getExport(ctx, input)),
    list: procedure("call-log:export").query(({ ctx }) => listExports(ctx)),
  }),
  seal: router({
    status: procedure("audit:verify").query(({ ctx }) => sealStatus(ctx)),
    // A mutation only so the browser never caches or prefetches it: it reads, and records that it did.
    verify: procedure("audit:verify").input(noInput).mutation(({ ctx }) => verifyChainFor(ctx)),
  }),
});
