import pg from "pg";
import { carryRoutingState, loadConfig, type GatewayConfig } from "./config.ts";

/**
 * Keeps a GatewayConfig current: loads it, then reloads on every NOTIFY on `kule_config` (the
 * database's triggers send one for each change of keys, tenants, endpoints, weights or replicas),
 * coalescing bursts, and every `fullRefreshMs` anyway in case a notification was lost. When the
 * database is away it keeps serving the last config it had.
 */
export class ConfigStore {
  current: GatewayConfig | null = null;
  private listener: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private readonly reloadListeners: ((cfg: GatewayConfig) => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly databaseUrl: string,
    private readonly opts = { fullRefreshMs: 30_000, coalesceMs: 10 },
  ) {}

  /** Runs `listener` with each configuration loaded from now on (the cold-start gate, the key guard). */
  onReload(listener: (cfg: GatewayConfig) => void) {
    this.reloadListeners.push(listener);
  }

  async start(): Promise<void> {
    // A database slow to answer at start (a busy machine, a restart) is waited for a while: a
    // gateway that gave up at once would need restarting by hand.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.reload();
        break;
      } catch (e) {
        if (attempt >= 8 || this.closed) throw e;
        await new Promise((r) => setTimeout(r, Math.min(4000, 250 * 2 ** attempt)));
      }
    }
    await this.listen();
    this.timer = setInterval(() => void this.reload().catch(() => {}), this.opts.fullRefreshMs);
    this.timer.unref();
  }

  /** Seconds since the config was last loaded. */
  get ageSeconds(): number {
    return this.current ? (Date.now() - this.current.loadedAt) / 1000 : Infinity;
  }

  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.again = false;
          const next = await loadConfig(this.pool);
          if (this.current) carryRoutingState(this.current, next);
          this.current = next;
          for (const listener of this.reloadListeners) listener(this.current);
        } while (this.again);
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  private async listen() {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on("notification", () => {
      this.pending ??= setTimeout(() => {
        this.pending = null;
        void this.reload().catch(() => {});
      }, this.opts.coalesceMs);
    });
    // A dropped listener connection is re-made; a full reload covers what was missed meanwhile.
    client.on("error", () => {});
    const retry = () => {
      if (!this.closed) setTimeout(() => void this.listen().then(() => this.reload()).catch(() => {}), 1000).unref();
    };
    client.on("end", () => {
      if (this.listener !== client) return;
      this.listener = null;
      retry();
    });
    try {
      await client.connect();
      await client.query("LISTEN kule_config");
      this.listener = client;
    } catch {
      await client.end().catch(() => {});
      retry();
    }
  }

  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pending) clearTimeout(this.pending);
    await this.listener?.end().catch(() => {});
  }
}
