import { KubeConfig } from "@kubernetes/client-node";
import { ApiServer } from "./api-server.ts";
import { ObjectStore } from "./object-store.ts";
import { Registry } from "./registry.ts";
import { WatchHub, type WatchHubOptions } from "./watch-hub.ts";
import { kindByName } from "./resource-kinds.ts";
import { gpuNode, type GpuNodeSpec } from "./gpu-nodes.ts";
import { ClusterApi } from "./controllers/cluster-api.ts";
import type { Controller } from "./controllers/controller.ts";
import { DeploymentController } from "./controllers/deployment-controller.ts";
import { ReplicaSetController } from "./controllers/replica-set-controller.ts";
import { Scheduler } from "./controllers/scheduler.ts";
import { InferenceServiceController } from "./controllers/inference-service-controller.ts";
import { GarbageCollector } from "./controllers/garbage-collector.ts";
import { LeaderWorkerSetController } from "./controllers/leader-worker-set-controller.ts";
import { KubeletHost, type Kubelet } from "./controllers/kubelet.ts";
import { SimpleKubelet } from "./controllers/simple-kubelet.ts";
import { MigManager, type MigApplier } from "./controllers/mig-manager.ts";
import { ConfigMapMigApplier } from "./controllers/config-map-mig-applier.ts";

export interface StandInOptions extends Partial<WatchHubOptions> {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** How many changes watches can resume from; older resourceVersions answer 410. */
  eventWindow?: number;
  /** The node agent; `false` leaves bound pods Pending as on a cluster whose kubelets are down. */
  kubelet?: Kubelet | false;
  /** The MIG manager's applier; `false` runs no MIG manager. */
  migApplier?: MigApplier | false;
  /** Deployment, ReplicaSet and LeaderWorkerSet controllers, scheduler, garbage collector: all on unless turned off. */
  workloadControllers?: boolean;
  scheduler?: boolean;
  /** KServe's controller (raw deployment mode, predictors only); off unless asked for. */
  kserve?: boolean;
  extraControllers?: Controller[];
}

export interface StandIn {
  readonly url: string;
  /** A kubeconfig for the stand-in, as a file would hold it. */
  readonly kubeconfigYaml: string;
  /** A fresh KubeConfig loaded from `kubeconfigYaml`, ready for `makeApiClient`. */
  kubeConfig(): KubeConfig;
  /** In-process access to the objects (what controllers use), for seeding and for assertions. */
  readonly api: ClusterApi;
  readonly store: ObjectStore;
  readonly kubelet?: Kubelet;
  readonly migManager?: MigManager;
  /** Errors controllers hit while reconciling (each is retried); a test can assert there were none. */
  readonly controllerErrors: { controller: string; key: string; error: unknown }[];
  /** The latest HTTP requests served, oldest first (capped): what a client cost the API server. */
  readonly requestLog: readonly { method: string; url: string; at: number }[];
  seedGpuNodes(specs: GpuNodeSpec[]): void;
  /** Drops the change window, as an etcd compaction does: watches from older versions get 410. */
  compact(): void;
  /** Ends every open watch with an ERROR event carrying 410 Expired. */
  expireWatches(): void;
  /** The API server stops listening and drops its connections; the cluster keeps its state. */
  goAway(): Promise<void>;
  /**
   * The API server listens again on the same port. Like a restarted server, whose watch cache
   * starts afresh, it answers watches from before the restart with 410 unless `keepWatchWindow`.
   */
  comeBack(opts?: { keepWatchWindow?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const store = new ObjectStore(options.eventWindow ?? 1000);
  const registry = new Registry(store);
  for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
    registry.create(kindByName("Namespace"), undefined, { metadata: { name } });
  }
  const watches = new WatchHub(store, { bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000, expiredWatchAs: options.expiredWatchAs ?? "http-status" });
  const server = new ApiServer(registry, watches);
  await server.listen(options.port ?? 0);
  const controllerErrors: StandIn["controllerErrors"] = [];
  const api = new ClusterApi(registry, (controller, error) => controllerErrors.push({ controller, key: "", error }));
  const report = (controller: string) => (key: string, error: unknown) => controllerErrors.push({ controller, key, error });

  const kubelet = options.kubelet === false ? undefined : (options.kubelet ?? new SimpleKubelet());
  const migManager = options.migApplier === false ? undefined : new MigManager(options.migApplier ?? new ConfigMapMigApplier());
  const controllers: Controller[] = [];
  if (options.workloadControllers !== false) {
    controllers.push(new DeploymentController(report("deployment-controller")), new ReplicaSetController(report("replicaset-controller")), new LeaderWorkerSetController(report("lws-controller-manager")), new GarbageCollector());
  }
  if (options.scheduler !== false) controllers.push(new Scheduler(report("default-scheduler")));
  if (options.kserve) controllers.push(new InferenceServiceController(report("kserve-controller-manager")));
  if (kubelet) controllers.push(new KubeletHost(kubelet));
  if (migManager) controllers.push(migManager);
  controllers.push(...(options.extraControllers ?? []));
  for (const c of controllers) c.start(api);

  const kubeconfigYaml = [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    // Kule's driver reads this cluster name as "the API server is the stand-in" (server/cluster/kubernetes/settings.ts).
    "- name: kule-stand-in",
    "  cluster:",
    `    server: ${server.url}`,
    // The stand-in speaks plain HTTP; client-node refuses http:// unless TLS checks are off.
    "    insecure-skip-tls-verify: true",
    "users:",
    "- name: stand-in",
    "  user:",
    "    token: stand-in",
    "contexts:",
    "- name: kule-stand-in",
    "  context:",
    "    cluster: kule-stand-in",
    "    user: stand-in",
    "    namespace: default",
    "current-context: kule-stand-in",
    "",
  ].join("\n");

  return {
    url: server.url,
    kubeconfigYaml,
    kubeConfig() {
      const kc = new KubeConfig();
      kc.loadFromString(kubeconfigYaml);
      return kc;
    },
    api,
    store,
    kubelet,
    migManager,
    controllerErrors,
    requestLog: server.requestLog,
    seedGpuNodes(specs) {
      for (const s of specs) api.create(gpuNode(s));
    },
    compact: () => store.compact(),
    expireWatches: () => watches.expireAll(),
    goAway: () => server.close(),
    comeBack: (opts = {}) => {
      if (!opts.keepWatchWindow) store.compact();
      return server.listen(server.port);
    },
    async stop() {
      for (const c of controllers) c.stop();
      if (kubelet instanceof SimpleKubelet) kubelet.shutdown();
      await server.close();
    },
  };
}
