import type pg from "pg";
import { UnavailableError } from "../errors.ts";
import type { GatewayCall } from "./call.ts";
import type { EndpointConfig, TenantConfig, VersionConfig } from "./config.ts";
import type { ConfigStore } from "./config-store.ts";
import { usableReplicas } from "./routing.ts";

/** A wake is written at most this often per version (the autoscaler looks at it every tick). */
const WAKE_EVERY_MS = 1000;
const DEFAULT_RETRY_S = 5;

interface Waiter {
  endpointId: string;
  check: () => boolean;
}

/**
 * Scale from zero: while none of an endpoint's versions has a ready replica the caller may use,
 * and one is starting (or an autoscaling policy can start one), a call waits here instead of
 * failing: up to the endpoint's queue length and timeout, then 503 with Retry-After. Waiters are
 * looked at again on every config reload, which a replica turning ready triggers.
 */
export class ColdStartGate {
  private readonly waiters = new Set<Waiter>();
  private readonly queued = new Map<string, number>();
  private readonly wokenAt = new Map<string, number>();

  constructor(
    private readonly config: ConfigStore,
    private readonly pool: pg.Pool,
  ) {
    config.onReload(() => {
      for (const w of this.waiters) w.check();
    });
  }

  /** Calls held now, over all endpoints (the gateway's metrics). */
  get holding(): number {
    return this.waiters.size;
  }

  /** True once the call's endpoint can serve it (call.endpoint then refreshed); false if the client left; else throws 503. */
  async hold(call: GatewayCall, signal: AbortSignal): Promise<boolean> {
    const e = call.endpoint!;
    const tenant = call.tenant!;
    if (servable(e, tenant)) return true;
    const cold = e.versions.filter((v) => v.weight > 0 && ((v.starting ?? 0) > 0 || v.autoscaled));
    if (!cold.length) return true; // nothing on the way: the proxy answers 503 at once
    const limits = e.coldStart ?? { queueLimit: 0, timeoutMs: 0 };
    const n = this.queued.get(e.id) ?? 0;
    if (n >= limits.queueLimit) {
      call.errorClass = "cold_start_queue_full";
      throw new UnavailableError(`${e.slug} is starting a replica and already holds ${n} call(s), as many as it queues: try again after the Retry-After time.`, { retryAfterSeconds: retryAfter(cold) });
    }
    this.wake(cold.filter((v) => v.autoscaled && !v.starting));
    this.queued.set(e.id, n + 1);
    try {
      return await new Promise<boolean>((resolve, reject) => {
        const done = (err?: Error, served = true) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          this.waiters.delete(w);
          if (err) reject(err);
          else resolve(served);
        };
        const w: Waiter = {
          endpointId: e.id,
          check: () => {
            const fresh = this.config.current?.endpointsBySlug.get(e.slug);
            if (!fresh) return false;
            if (servable(fresh, tenant)) {
              call.endpoint = fresh;
              done();
              return true;
            }
            return false;
          },
        };
        const onAbort = () => done(undefined, false);
        const timer = setTimeout(() => {
          const fresh = this.config.current?.endpointsBySlug.get(e.slug) ?? e;
          call.errorClass = "cold_start_timeout";
          done(new UnavailableError(`No replica of ${e.slug} became ready within ${Math.round(limits.timeoutMs / 1000)} s of this call (a cold start is under way): try again after the Retry-After time.`, { retryAfterSeconds: retryAfter(fresh.versions) }));
        }, limits.timeoutMs);
        signal.addEventListener("abort", onAbort);
        this.waiters.add(w);
        // A reload may have landed between the check above and now.
        w.check();
      });
    } finally {
      const left = (this.queued.get(e.id) ?? 1) - 1;
      if (left > 0) this.queued.set(e.id, left);
      else this.queued.delete(e.id);
    }
  }

  /** Tells the autoscaler that calls wait for versions with nothing running (it starts one). */
  private wake(versions: VersionConfig[]) {
    const now = Date.now();
    const ids = versions.map((v) => v.id).filter((id) => now - (this.wokenAt.get(id) ?? 0) >= WAKE_EVERY_MS);
    if (!ids.length) return;
    for (const id of ids) this.wokenAt.set(id, now);
    this.pool.query(`UPDATE "AutoscalePolicy" SET "wakeRequestedAt" = now() WHERE "endpointVersionId" = ANY($1) AND enabled`, [ids]).catch((err: unknown) => console.error(`[gateway] waking the autoscaler failed: ${(err as Error).message}`));
  }
}

function servable(e: EndpointConfig, tenant: Pick<TenantConfig, "kvkk" | "abroad" | "specialAbroad">): boolean {
  return e.versions.some((v) => v.weight > 0 && usableReplicas(v, tenant, e).length > 0);
}

/** Until the earliest starting replica expects to be ready, else a few seconds. */
function retryAfter(versions: VersionConfig[]): number {
  const at = versions.map((v) => v.startingReadyAt).filter((x): x is number => typeof x === "number");
  if (!at.length) return DEFAULT_RETRY_S;
  return Math.max(1, Math.ceil((Math.min(...at) - Date.now()) / 1000));
}
