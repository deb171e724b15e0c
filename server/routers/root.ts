import { createCallerFactory, router } from "../trpc/init.ts";
import { modelRouter } from "./model.ts";
import { endpointRouter } from "./endpoint.ts";
import { tenantRouter } from "./tenant.ts";
import { apiKeyRouter } from "./api-key.ts";
import { userRouter } from "./user.ts";
import { auditRouter } from "./audit.ts";
import { clusterRouter } from "./cluster.ts";
import { systemRouter } from "./system.ts";
import { metricsRouter } from "./metrics.ts";
import { rolloutRouter } from "./rollout.ts";
import { usageRouter } from "./usage.ts";
import { callLogRouter } from "./call-log.ts";
import { kvkkRouter } from "./kvkk.ts";
import { alertRouter } from "./alert.ts";
import { ssoRouter } from "./sso.ts";
import { autoscaleRouter } from "./autoscale.ts";
import { plannerRouter } from "./planner.ts";

export const appRouter = router({
  model: modelRouter,
  endpoint: endpointRouter,
  tenant: tenantRouter,
  apiKey: apiKeyRouter,
  user: userRouter,
  audit: auditRouter,
  cluster: clusterRouter,
  system: systemRouter,
  metrics: metricsRouter,
  rollout: rolloutRouter,
  usage: usageRouter,
  callLog: callLogRouter,
  kvkk: kvkkRouter,
  alert: alertRouter,
  sso: ssoRouter,
  autoscale: autoscaleRouter,
  planner: plannerRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
