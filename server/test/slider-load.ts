/**
 * The rollout load check, shared by the integration test and `npm run bench`: a fixed rate of
 * chat calls spread over several gateways while the canary slider moves and rollbacks happen.
 * Every answer carries the endpoint revision it was routed under (X-Kule-Endpoint-Revision), so
 * each version's served share can be checked against the weights of that very revision, and the
 * time for a change to reach every gateway measured.
 */
import { Agent } from "undici";

export interface Change {
  revision: number;
  /** Version label → weight. */
  weights: Record<string, number>;
  savedAt: number;
}

export interface SliderLoadOptions {
  gateways: string[];
  secret: string;
  slug: string;
  rps: number;
  moves: number;
  rollbacks: number;
  /** Pause after most changes, and after every `longEvery`-th one a pause long enough for ≥ 1,000 requests. */
  shortMs: number;
  longMs: number;
  longEvery: number;
  setCanaryWeight: (weight: number) => Promise<Change>;
  rollback: () => Promise<Change>;
  initial: Change;
}

export interface SliderLoadResult {
  requests: number;
  failed: number;
  failures: string[];
  slider_moves: number;
  rollbacks: number;
  windows_checked: number;
  max_share_error_points: number;
  propagation_p99_ms: number;
  propagation_max_ms: number;
}

interface Answer {
  gateway: number;
  at: number;
  revision: number;
  version: string;
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

export async function runSliderLoad(o: SliderLoadOptions): Promise<SliderLoadResult> {
  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  const answers: Answer[] = [];
  const failures: string[] = [];
  let sent = 0;
  const inflight = new Set<Promise<void>>();
  const body = JSON.stringify({ model: o.slug, messages: [{ role: "user", content: "kısa" }], max_tokens: 2 });

  const send = () => {
    const g = sent++ % o.gateways.length;
    const p = (async () => {
      try {
        const res = await fetch(`${o.gateways[g]}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json" },
          body,
          // @ts-expect-error undici's dispatcher option on Node's fetch
          dispatcher: agent,
        });
        const text = await res.text();
        if (res.status !== 200) failures.push(`${res.status} ${text.slice(0, 200)}`);
        else answers.push({ gateway: g, at: Date.now(), revision: Number(res.headers.get("x-kule-endpoint-revision")), version: res.headers.get("x-kule-version") ?? "?" });
      } catch (e) {
        failures.push(`network: ${(e as Error).message}`);
      }
    })();
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };

  // Open loop: requests go out on schedule whether or not earlier ones have come back.
  const started = Date.now();
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * o.rps);
    while (sent < due) send();
  }, 5);

  const changes: Change[] = [o.initial];
  let moves = 0;
  let rollbacks = 0;
  const total = o.moves + o.rollbacks;
  const rollbackEvery = Math.floor(total / Math.max(1, o.rollbacks));
  try {
    await sleep(o.longMs); // a first window under the initial weights
    for (let i = 1; i <= total; i++) {
      const doRollback = rollbacks < o.rollbacks && i % rollbackEvery === 0;
      if (doRollback) {
        changes.push(await o.rollback());
        rollbacks++;
      } else {
        // Weights across the range, the presets among them.
        const presets = [5, 20, 50, 100, 1, 99];
        const w = i % 7 === 0 ? presets[(i / 7) % presets.length]! : 1 + Math.floor(Math.random() * 99);
        changes.push(await o.setCanaryWeight(w));
        moves++;
      }
      await sleep(i % o.longEvery === 0 ? o.longMs : o.shortMs);
    }
    await sleep(500);
  } finally {
    clearInterval(timer);
    await Promise.all(inflight);
    await agent.close();
  }

  // Served share per revision, where a revision served at least 1,000 requests.
  const byRevision = new Map<number, Answer[]>();
  for (const a of answers) (byRevision.get(a.revision) ?? byRevision.set(a.revision, []).get(a.revision)!).push(a);
  let maxError = 0;
  let windows = 0;
  for (const c of changes) {
    const served = byRevision.get(c.revision) ?? [];
    if (served.length < 1000) continue;
    windows++;
    for (const [label, weight] of Object.entries(c.weights)) {
      const share = (served.filter((a) => a.version === label).length / served.length) * 100;
      maxError = Math.max(maxError, Math.abs(share - weight));
    }
  }

  // Propagation: from the save to the first answer under it (or a later revision) from every gateway.
  const propagation: number[] = [];
  for (const c of changes.slice(1)) {
    const perGateway = o.gateways.map((_, g) => answers.find((a) => a.gateway === g && a.revision >= c.revision && a.at >= c.savedAt - 5)?.at);
    if (perGateway.some((t) => t === undefined)) continue;
    propagation.push(Math.max(...(perGateway as number[])) - c.savedAt);
  }

  return {
    requests: answers.length + failures.length,
    failed: failures.length,
    failures: failures.slice(0, 5),
    slider_moves: moves,
    rollbacks,
    windows_checked: windows,
    max_share_error_points: +maxError.toFixed(2),
    propagation_p99_ms: Math.max(0, percentile(propagation, 99)),
    propagation_max_ms: Math.max(0, ...propagation),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
