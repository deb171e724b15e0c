import { procedure, router } from "../trpc/init.ts";
import { noInput } from "../schemas/common.ts";
import { listNodePools } from "../cluster/node-pools.ts";
import { migChangeInput, migChangeRefInput } from "../cluster/schemas.ts";
import { cancelMigChange, listMigChanges, migChangesInLanguage, previewMigChange, startMigChange } from "../cluster/mig-change.ts";
import { cordonInput, faultInput, freeDevicesInput, migLayoutInput, nodeListInput, nodeRefInput, registerExternalInput, startReplicaInput, stopReplicaInput } from "../cluster/schemas.ts";
import { registerExternal, startReplica, stopReplica } from "../cluster/replicas.ts";
import { applyMigLayout, clearFaults, injectFault, setCordon } from "../cluster/operations.ts";
import { clusterSummary } from "../cluster/fleet-summary.ts";
import { listNodes } from "../cluster/node-list.ts";
import { nodeDetail } from "../cluster/node-detail.ts";
import { clusterHeatmap } from "../cluster/heatmap.ts";
import { devicesForVersion } from "../cluster/placement.ts";

export const clusterRouter = router({
  nodePools: procedure("cluster:read").query(({ ctx }) => listNodePools(ctx)),
  summary: procedure("cluster:read").query(({ ctx }) => clusterSummary(ctx)),
  nodes: procedure("cluster:read").input(nodeListInput).query(({ ctx, input }) => listNodes(ctx, input)),
  node: procedure("cluster:read").input(nodeRefInput).query(({ ctx, input }) => nodeDetail(ctx, input)),
  heatmap: procedure("cluster:read").query(({ ctx }) => clusterHeatmap(ctx)),
  freeDevices: procedure("cluster:write").input(freeDevicesInput).query(({ ctx, input }) => devicesForVersion(ctx, input)),
  startReplica: procedure("cluster:write").input(startReplicaInput).mutation(({ ctx, input }) => startReplica(ctx, input)),
  registerExternal: procedure("cluster:write").input(registerExternalInput).mutation(({ ctx, input }) => registerExternal(ctx, input)),
  stopReplica: procedure("cluster:write").input(stopReplicaInput).mutation(({ ctx, input }) => stopReplica(ctx, input)),
  applyMig: procedure("cluster:write").input(migLayoutInput).mutation(({ ctx, input }) => applyMigLayout(ctx, input)),
  /** What a MIG change of busy GPUs would move, before anything is touched. */
  previewMigChange: procedure("cluster:write").input(migChangeInput).query(({ ctx, input }) => previewMigChange(ctx, input)),
  startMigChange: procedure("cluster:write").input(migChangeInput).mutation(({ ctx, input }) => startMigChange(ctx, input)),
  cancelMigChange: procedure("cluster:write").input(migChangeRefInput).mutation(({ ctx, input }) => cancelMigChange(ctx, input)),
  migChanges: procedure("cluster:read").query(async ({ ctx }) => migChangesInLanguage(ctx.locale, await listMigChanges(ctx))),
  setCordon: procedure("cluster:write").input(cordonInput).mutation(({ ctx, input }) => setCordon(ctx, input)),
  injectFault: procedure("cluster:write").input(faultInput).mutation(({ ctx, input }) => injectFault(ctx, input)),
  clearFaults: procedure("cluster:write").input(noInput).mutation(({ ctx }) => clearFaults(ctx)),
});
