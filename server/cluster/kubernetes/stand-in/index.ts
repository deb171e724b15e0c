/**
 * A Kubernetes API server stand-in for the `kubernetes` cluster driver and its tests: the real
 * REST shapes over HTTP on 127.0.0.1, so @kubernetes/client-node cannot tell it from a cluster.
 *
 *   const standIn = await startStandIn();
 *   standIn.seedGpuNodes([{ name: "gpu-1", pool: "h100" }]);
 *   const core = standIn.kubeConfig().makeApiClient(CoreV1Api);
 *   …
 *   await standIn.stop();
 */
export { startStandIn, type StandIn, type StandInOptions } from "./stand-in.ts";
export { gpuNode, POOL_LABEL, type GpuNodeSpec } from "./gpu-nodes.ts";
export { ClusterApi } from "./controllers/cluster-api.ts";
export type { Controller } from "./controllers/controller.ts";
export type { Kubelet, PodStatusWriter, Pod, PodStatus } from "./controllers/kubelet.ts";
export { SimpleKubelet, type PodFault, type SimpleKubeletOptions } from "./controllers/simple-kubelet.ts";
export { MigManager, MIG_CONFIG_LABEL, MIG_STATE_LABEL, type MigApplier, type MigApplyResult, type MigOutcome } from "./controllers/mig-manager.ts";
export { ConfigMapMigApplier, type ConfigMapMigApplierOptions } from "./controllers/config-map-mig-applier.ts";
export type { KubeObject } from "./kube-object.ts";
