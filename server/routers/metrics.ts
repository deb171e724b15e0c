import { z } from "zod";
import { procedure, router } from "../trpc/init.ts";
import { id } from "../schemas/common.ts";
import { RANGES, type RangeName } from "../metrics/promql.ts";
import { endpointCharts } from "../metrics/endpoint-charts.ts";
import { gpuFleet } from "../metrics/gpu-fleet.ts";

export const endpointChartsInput = z.object({ endpointId: id, range: z.enum(Object.keys(RANGES) as [RangeName, ...RangeName[]]).default("15m") });

export const metricsRouter = router({
  gpuFleet: procedure("metrics:read").query(({ ctx }) => gpuFleet(ctx)),
  endpointCharts: procedure("metrics:read").input(endpointChartsInput).query(({ ctx, input }) => endpointCharts(ctx, input)),
});
