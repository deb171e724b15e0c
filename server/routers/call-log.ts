import { procedure, router } from "../trpc/init.ts";
import { getCallInput, listCallsInput } from "../calllog/schemas.ts";
import { listCalls } from "../calllog/list.ts";
import { getCall } from "../calllog/get.ts";
import { exportIdInput, startExportInput } from "../calllog/export/schemas.ts";
import { getExport, listExports, startExport } from "../calllog/export/jobs.ts";
import { sealStatus, verifyChainFor } from "../audit/chain.ts";

export const callLogRouter = router({
  list: procedure("calllog:read").input(listCallsInput).query(({ ctx, input }) => listCalls(ctx, input)),
  get: procedure("calllog:read").input(getCallInput).query(({ ctx, input }) => getCall(ctx, input)),
  export: router({
    start: procedure("calllog:export").input(startExportInput).mutation(({ ctx, input }) => startExport(ctx, input)),
    get: procedure("calllog:export").input(exportIdInput).query(({ ctx, input }) => getExport(ctx, input)),
    list: procedure("calllog:export").query(({ ctx }) => listExports(ctx)),
  }),
  seal: router({
    status: procedure("audit:verify").query(({ ctx }) => sealStatus(ctx)),
    // A mutation only so the browser never caches or prefetches it: it reads, and records that it did.
    verify: procedure("audit:verify").mutation(({ ctx }) => verifyChainFor(ctx)),
  }),
});
