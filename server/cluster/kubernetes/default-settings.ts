import type { KubernetesSettings } from "./settings.ts";

/** The defaults of server/env.ts as settings: what tests and the demo give the driver against the stand-in. */
export function defaultKubernetesSettings(over: Partial<KubernetesSettings> = {}): KubernetesSettings {
  return {
    namespace: "kule-replicas",
    poolLabel: "kule.io/node-pool",
    workload: "deployment",
    migConfigMap: { namespace: "gpu-operator", name: "kule-mig-parted-config", key: "config.yaml" },
    ...over,
  };
}
