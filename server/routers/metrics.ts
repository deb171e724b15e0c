import { procedure, router } from "../trpc/init.ts";
import { endpointCharts } from "../metrics/endpoint-charts.ts";
import { gpuFleet } from "../metrics/gpu-fleet.ts";
import { gpuCharts, replicaScope } from "../metrics/gpu-charts.ts";
import { slaStatus } from "../metrics/slo/sla-status.ts";
import { tenantCharts } from "../metrics/tenant-charts.ts";
import { explore } from "../metrics/explore.ts";
import { endpointGrafanaDashboard } from "../metrics/grafana-export.ts";
import { endpointChartsInput, exploreInput, gpuChartsInput, grafanaDashboardInput, tenantChartsInput } from "../metrics/schemas.ts";

export const metricsRouter = router({
  gpuFleet: procedure("metrics:read").query(({ ctx }) => gpuFleet(ctx)),
  endpointCharts: procedure("metrics:read").input(endpointChartsInput).query(({ ctx, input }) => endpointCharts(ctx, input)),
  gpuCharts: procedure("metrics:read").input(gpuChartsInput).query(async ({ ctx, input }) => gpuCharts(ctx, { ...input, scope: input.scope.kind === "replica" ? await replicaScope(ctx.db, input.scope.replicaId) : input.scope })),
  sla: procedure("metrics:read").query(({ ctx }) => slaStatus(ctx)),
  grafanaDashboard: procedure("metrics:read").input(grafanaDashboardInput).query(({ ctx, input }) => endpointGrafanaDashboard(ctx, input)),
  /** Tenant users: their own tenant's traffic only (the tenant is the signed-in user's). */
  tenantCharts: procedure("metrics:tenant").input(tenantChartsInput).query(({ ctx, input }) => tenantCharts(ctx, input)),
  /** Raw PromQL: operators and admins only. */
  explore: procedure("metrics:explore").input(exploreInput).query(({ ctx, input }) => explore(ctx, input)),
});
