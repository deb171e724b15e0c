/**
 * What the gateway knows of each replica from its own calls: requests outstanding (for least
 * outstanding routing) and consecutive failures, after which a replica cools down for a while.
 */
export class ReplicaHealth {
  private readonly outstanding = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(private readonly cooldown = { failures: 3, ms: 10_000 }) {}

  load = (id: string): number => this.outstanding.get(id) ?? 0;
  coolingDown = (id: string): boolean => (this.failures.get(id)?.until ?? 0) > Date.now();

  begin(id: string) {
    this.outstanding.set(id, this.load(id) + 1);
  }
  end(id: string) {
    this.outstanding.set(id, (this.outstanding.get(id) ?? 1) - 1);
  }

  failed(id: string) {
    const f = this.failures.get(id) ?? { count: 0, until: 0 };
    f.count++;
    if (f.count >= this.cooldown.failures) {
      f.until = Date.now() + this.cooldown.ms;
      f.count = 0;
    }
    this.failures.set(id, f);
  }
  succeeded(id: string) {
    this.failures.delete(id);
  }
}
