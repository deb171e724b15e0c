import { db } from "./db/client.ts";
import { appDrivers } from "./cluster/drivers.ts";
import { startClusterSync } from "./cluster/sync.ts";
import { appPrometheus } from "./metrics/app-client.ts";
import { startRolloutWorker } from "./rollouts/worker.ts";
import { startSloRulesSync } from "./metrics/slo/rules-sync.ts";
import { startAuditHousekeeping } from "./audit/housekeeping.ts";
import { startUsageWorker } from "./usage/worker.ts";
import { appAlertmanager, startAlertmanagerSync } from "./alerts/config-sync.ts";
import { startStateAlerts } from "./alerts/state-alerts.ts";
import { startAutoscaler } from "./autoscale/loop.ts";
import { readSignal } from "./autoscale/signal.ts";
import { startMigChangeWorker } from "./cluster/mig-change.ts";

const g = globalThis as unknown as { kuleBackground?: () => void; kuleRollouts?: unknown; kuleSloRules?: () => void; kuleAuditJobs?: () => void; kuleUsage?: unknown; kuleAlertmanager?: () => void; kuleStateAlerts?: () => void; kuleAutoscaler?: unknown; kuleMigChanges?: unknown };

/**
 * Work the app server does beside answering requests: following the cluster's events, and the
 * rollout loop (automatic canaries, drains). Both keep their state in the database, so a restart
 * picks up where they were.
 */
export function startBackground() {
  g.kuleBackground ??= startClusterSync(db(), appDrivers());
  g.kuleRollouts ??= startRolloutWorker({ db: db(), drivers: appDrivers(), prometheus: appPrometheus() });
  // The SLO burn-rate rules follow the SLOs in the database (see server/metrics/slo/rules-sync.ts).
  g.kuleSloRules ??= startSloRulesSync({ db: db(), prometheus: appPrometheus() });
  // Partitions ahead, hourly seals, the destruction cycle (server/audit/housekeeping.ts).
  g.kuleAuditJobs ??= startAuditHousekeeping(db());
  // Usage roll-ups, infrastructure cost per hour, budget hard caps (server/usage/worker.ts).
  g.kuleUsage ??= startUsageWorker(db(), undefined, { prometheus: appPrometheus() });
  // alertmanager.yml follows the receivers in the database (server/alerts/config-sync.ts).
  g.kuleAlertmanager ??= startAlertmanagerSync(db());
  // Budgets at 80%/100%, failed replicas and MIG changes: posted to Alertmanager like Prometheus' alerts.
  g.kuleStateAlerts ??= startStateAlerts(db(), appAlertmanager());
  // Replica counts follow each autoscaling policy's signal (server/autoscale/loop.ts).
  g.kuleAutoscaler ??= startAutoscaler({ db: db(), drivers: appDrivers(), signal: (s, v, ready) => readSignal(appPrometheus(), s, v, ready) });
  // MIG changes of busy GPUs, step by step (server/cluster/mig-change.ts).
  g.kuleMigChanges ??= startMigChangeWorker({ db: db(), drivers: appDrivers() });
}
