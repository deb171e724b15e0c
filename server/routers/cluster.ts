import { procedure, router } from "../trpc/init.ts";
import { listNodePools } from "../cluster/node-pools.ts";

export const clusterRouter = router({
  nodePools: procedure("cluster:read").query(({ ctx }) => listNodePools(ctx)),
});
