import { env } from "../env.ts";
import { SimDriver } from "./sim-driver.ts";
import { ExternalDriver } from "./external-driver.ts";
import type { ActorContext } from "../auth/actor.ts";

/** The drivers a Kule process talks to. Passed in the request context so tests can point them elsewhere. */
export interface Drivers {
  sim: SimDriver;
  external: ExternalDriver;
}

/** What a domain function that drives the cluster for a user receives. */
export type ClusterContext = ActorContext & { drivers: Drivers };

const g = globalThis as unknown as { kuleDrivers?: Drivers };

export function appDrivers(): Drivers {
  g.kuleDrivers ??= { sim: new SimDriver(env.KULE_SIM_URL), external: new ExternalDriver() };
  return g.kuleDrivers;
}
