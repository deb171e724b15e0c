import { env } from "../env.ts";
import { SimDriver } from "./sim-driver.ts";
import { ExternalDriver } from "./external-driver.ts";
import { KubernetesDriver } from "./kubernetes/kubernetes-driver.ts";
import { kubernetesSettings, loadKubeConfig } from "./kubernetes/settings.ts";
import type { ActorContext } from "../auth/actor.ts";
import { UnavailableError } from "../errors.ts";

/**
 * The drivers a Kule process talks to. Passed in the request context so tests can point them
 * elsewhere. `sim` is the simulator's control API: the cluster itself unless `kubernetes` is
 * set, and always where simulated faults go (also behind the Kubernetes stand-in).
 */
export interface Drivers {
  sim: SimDriver;
  external: ExternalDriver;
  kubernetes?: KubernetesDriver;
}

/** The driver of the cluster Kule runs replicas on. */
export function clusterDriver(d: Drivers): SimDriver | KubernetesDriver {
  return d.kubernetes ?? d.sim;
}

/** The driver a replica row names. */
export function driverOf(d: Drivers, kind: "sim" | "external" | "kubernetes"): SimDriver | ExternalDriver | KubernetesDriver {
  if (kind === "external") return d.external;
  if (kind === "kubernetes") {
    if (!d.kubernetes) throw new UnavailableError("This replica runs on Kubernetes, and this Kule is not configured for it (KULE_CLUSTER_DRIVER=kubernetes).");
    return d.kubernetes;
  }
  return d.sim;
}

/** What a domain function that drives the cluster for a user receives. */
export type ClusterContext = ActorContext & { drivers: Drivers };

const g = globalThis as unknown as { kuleDrivers?: Drivers };

export function appDrivers(): Drivers {
  g.kuleDrivers ??= {
    sim: new SimDriver(env.KULE_SIM_URL),
    external: new ExternalDriver(),
    kubernetes: env.KULE_CLUSTER_DRIVER === "kubernetes" ? new KubernetesDriver(loadKubeConfig(kubernetesSettings(env), !!env.KUBERNETES_SERVICE_HOST), kubernetesSettings(env)) : undefined,
  };
  return g.kuleDrivers;
}
