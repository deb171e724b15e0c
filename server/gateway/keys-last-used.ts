import type pg from "pg";

/** Each key's `last used at`, kept in memory and written once every 30 s, not once per request. */
export class KeysLastUsed {
  private readonly at = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pool: pg.Pool) {
    this.timer = setInterval(() => void this.flush(), 30_000);
    this.timer.unref();
  }

  touch(keyId: string) {
    this.at.set(keyId, Date.now());
  }

  stop() {
    clearInterval(this.timer);
  }

  /** Writes what was used since the last flush; on failure it is kept for the next one. */
  async flush() {
    if (!this.at.size) return;
    const entries = [...this.at];
    this.at.clear();
    const values = entries.map((_, i) => `($${i * 2 + 1}, $${i * 2 + 2}::timestamptz)`).join(",");
    await this.pool
      .query(`UPDATE "ApiKey" k SET "lastUsedAt" = v.at FROM (VALUES ${values}) AS v(id, at) WHERE k.id = v.id AND (k."lastUsedAt" IS NULL OR k."lastUsedAt" < v.at)`, entries.flatMap(([id, at]) => [id, new Date(at)]))
      .catch(() => entries.forEach(([id, at]) => this.at.set(id, Math.max(at, this.at.get(id) ?? 0))));
  }
}
