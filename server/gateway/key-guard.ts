import type pg from "pg";
import { allVersions, type Rings } from "../call-log/keys/rings.ts";
import { registerRings } from "../call-log/keys/registry.ts";
import { UnavailableError } from "../errors.ts";
import type { GatewayConfig } from "./config.ts";
import type { ConfigStore } from "./config-store.ts";
import { keyState, type KeyState, type LogKeys } from "./key-check.ts";

/**
 * What this gateway holds (versions and fingerprints, never a key) and under which versions it
 * logs, for the KVKK page: an operator sees which gateway lags behind a rotation. Written at start
 * and on config reloads, at most every 20 s unless the state changed: never on a call's path.
 */
export class KeyReporter {
  private last = "";
  private lastAt = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly rings: Rings,
  ) {}

  report(instance: string, state: KeyState, now = Date.now()): Promise<void> {
    const holds = { standard: this.held("standard"), special: this.held("special") };
    const logsUnder = state.logs ? [state.logs.standard.version, state.logs.special.version] : [];
    const key = JSON.stringify([holds, logsUnder, state.refusing]);
    if (key === this.last && now - this.lastAt < 20_000) return Promise.resolve();
    [this.last, this.lastAt] = [key, now];
    return this.pool
      .query(
        `INSERT INTO "GatewayKeyReport" (instance, holds, "logsUnder", refusing, "reportedAt") VALUES ($1, $2, $3, $4, now() AT TIME ZONE 'UTC')
           ON CONFLICT (instance) DO UPDATE SET holds = $2, "logsUnder" = $3, refusing = $4, "reportedAt" = now() AT TIME ZONE 'UTC'`,
        [instance, JSON.stringify(holds), logsUnder, state.refusing],
      )
      .then(
        () => {},
        () => void (this.last = ""), // the database is away: say it again next time
      );
  }

  private held(ring: "standard" | "special") {
    return allVersions(this.rings)
      .filter((k) => k.ring === ring)
      .map((k) => ({ version: k.version, fingerprint: k.fingerprint }));
  }
}

/**
 * The gateway's side of the key check: on every config load (start, reload) whether it may log and
 * under which keys (key-check.ts), said to the KVKK page; a call is refused while it may not.
 */
export class KeyGuard {
  state: KeyState = { logs: null, refusing: "the gateway has not read the current key versions yet" };
  /**
   * The keys rows are written under: the current ones, or while refusing the last ones held, so a
   * call admitted before a change is still logged (under a version that stays searchable and re-keyable).
   */
  rowKeys: LogKeys | null = null;
  private instance = "";
  private readonly reporter: KeyReporter;

  constructor(
    private readonly pool: pg.Pool,
    private readonly rings: Rings,
    config: ConfigStore,
  ) {
    this.reporter = new KeyReporter(pool, rings);
    config.onReload((cfg) => this.update(cfg));
  }

  /** Before the first config load: a new install's first process records its keys; later ones are checked against them. */
  async start(instance: string) {
    this.instance = instance;
    await registerRings(this.pool, this.rings).catch(() => {});
  }

  /** Throws 503 while this gateway cannot log under the current keys. */
  check() {
    if (this.state.refusing) throw new UnavailableError(`This gateway cannot log calls: ${this.state.refusing}.`);
  }

  private update(cfg: GatewayConfig) {
    const next = keyState(this.rings, cfg.keys);
    if (next.refusing && next.refusing !== this.state.refusing) console.error(`[gateway] refusing calls: ${next.refusing}`);
    this.state = next;
    this.rowKeys = next.logs ?? this.rowKeys;
    if (this.instance) void this.reporter.report(this.instance, next);
  }
}
