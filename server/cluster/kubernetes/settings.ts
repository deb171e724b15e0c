import { KubeConfig } from "@kubernetes/client-node";
import type { Env } from "../../env.ts";

/** How Kule reaches and uses a Kubernetes cluster (server/env.ts, README "Configuration"). */
export interface KubernetesSettings {
  /** A kubeconfig file; unset: the in-cluster service account when Kule runs in a pod, else ~/.kube/config. */
  kubeconfig?: string;
  /** The kubeconfig context; unset: its current context. */
  context?: string;
  /** The namespace Kule owns for replicas' workloads. */
  namespace: string;
  /** The node label naming a node's pool. */
  poolLabel: string;
  /** Replicas as Deployments (+ Services), or as KServe InferenceServices. */
  workload: "deployment" | "inferenceservice";
  /** The mig-parted ConfigMap Kule writes layouts into (the GPU Operator's ClusterPolicy points its MIG manager at it). */
  migConfigMap: { namespace: string; name: string; key: string };
  /** The name Kule records the cluster under; unset: the context's name. */
  clusterName?: string;
}

export function kubernetesSettings(env: Env): KubernetesSettings {
  const [namespace, name] = env.KULE_KUBE_MIG_CONFIGMAP.split("/");
  return {
    kubeconfig: env.KULE_KUBECONFIG,
    context: env.KULE_KUBE_CONTEXT,
    namespace: env.KULE_KUBE_NAMESPACE,
    poolLabel: env.KULE_KUBE_POOL_LABEL,
    workload: env.KULE_KUBE_WORKLOAD,
    migConfigMap: { namespace: namespace!, name: name!, key: "config.yaml" },
    clusterName: env.KULE_KUBE_CLUSTER_NAME,
  };
}

/** The kubeconfig named in the settings, or the pod's service account, or the user's default one. */
export function loadKubeConfig(s: Pick<KubernetesSettings, "kubeconfig" | "context">, inCluster: boolean): KubeConfig {
  const kc = new KubeConfig();
  if (s.kubeconfig) kc.loadFromFile(s.kubeconfig);
  else if (inCluster) kc.loadFromCluster();
  else kc.loadFromDefault();
  if (s.context) {
    // client-node takes any name here, and fails much later without a cluster: say it now.
    if (!kc.getContexts().some((c) => c.name === s.context)) throw new Error(`The kubeconfig has no context "${s.context}" (it has ${kc.getContexts().map((c) => c.name).join(", ") || "none"})`);
    kc.setCurrentContext(s.context);
  }
  return kc;
}

/** The stand-in's kubeconfig names its cluster so (server/cluster/kubernetes/stand-in): the UI then says the API server is a stand-in. */
export const STAND_IN_CLUSTER = "kule-stand-in";
