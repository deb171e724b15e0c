/**
 * The overload bench's calls (bench/overload.ts): open-loop Poisson arrivals per tenant, each a
 * streamed chat call, timed from sending to its first token or its refusal. Seeded, so FIFO and
 * Kule's policy get the very same calls.
 */
import { rng } from "./routing-workload.ts";

export interface TenantLoad {
  name: string;
  secret: string;
  /** Calls a second it sends. */
  perSecond: number;
  /** Its class's deadline for a first token or a refusal (ms): the TTFT SLO, or its client's timeout. */
  deadlineMs: number;
  /** Sent as x-stainless-timeout, as the openai client sends its timeout. */
  clientTimeoutS?: number;
}

export interface CallResult {
  tenant: string;
  status: number;
  /** Sending → first token, or → the refusal; null when neither came (the client gave up). */
  ttftMs: number | null;
  tokens: number;
  retryAfter: string | null;
}

/** One streamed call; gives up (counted as neither answered nor refused) at `abortMs`. */
export async function streamCall(url: string, t: TenantLoad, prompt: string, maxTokens: number, abortMs: number): Promise<CallResult> {
  const t0 = performance.now();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), abortMs);
  const result: CallResult = { tenant: t.name, status: 0, ttftMs: null, tokens: 0, retryAfter: null };
  try {
    const headers: Record<string, string> = { authorization: `Bearer ${t.secret}`, "content-type": "application/json" };
    if (t.clientTimeoutS) headers["x-stainless-timeout"] = String(t.clientTimeoutS);
    const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers, signal: ac.signal, body: JSON.stringify({ model: "chat", messages: [{ role: "user", content: prompt }], max_tokens: maxTokens, stream: true }) });
    result.status = res.status;
    result.retryAfter = res.headers.get("retry-after");
    if (res.status !== 200) {
      result.ttftMs = performance.now() - t0;
      await res.arrayBuffer();
      return result;
    }
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const text = decoder.decode(r.value, { stream: true });
      const n = text.split('"content":"').length - 1;
      if (n > 0 && result.ttftMs === null && /"content":"[^"]/.test(text)) result.ttftMs = performance.now() - t0;
      result.tokens += n;
    }
  } catch {
    // aborted: neither a first token nor a refusal came in time
  } finally {
    clearTimeout(timer);
  }
  return result;
}

/** Every tenant's calls for `seconds`, arriving as Poisson processes; resolves when all have ended. */
export async function playLoad(url: string, tenants: TenantLoad[], seconds: number, prompt: (tenant: string, i: number) => string, maxTokens: number, seed = 7): Promise<CallResult[]> {
  const r = rng(seed);
  const arrivals: { at: number; t: TenantLoad; i: number }[] = [];
  for (const t of tenants) for (let at = 0, i = 0; ; i++) {
    at += (-Math.log(1 - r()) / t.perSecond) * 1000;
    if (at > seconds * 1000) break;
    arrivals.push({ at, t, i });
  }
  arrivals.sort((a, b) => a.at - b.at);
  const t0 = performance.now();
  const calls: Promise<CallResult>[] = [];
  for (const a of arrivals) {
    const wait = t0 + a.at - performance.now();
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    calls.push(streamCall(url, a.t, prompt(a.t.name, a.i), maxTokens, 2 * a.t.deadlineMs + 5000));
  }
  return Promise.all(calls);
}

/** Closed loop of `clients` callers for `seconds`: the calls a second the replicas complete when kept full. */
export async function capacityOf(url: string, t: TenantLoad, clients: number, seconds: number, prompt: (i: number) => string, maxTokens: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const c = await streamCall(url, t, prompt(n++), maxTokens, 30_000);
        if (c.status === 200 && performance.now() < end) done++;
      }
    }),
  );
  return done / seconds;
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/**
 * Jain's fairness index over each tenant's weighted tokens against its max-min fair share of what
 * was served (Jain, Chiu and Hawe 1984: x_i = T_i / O_i): 1 when every tenant got what fair
 * sharing of the capacity would give it, given what it asked for.
 */
export function jainIndex(served: number[], asked: number[], weights: number[]): number {
  const fair = maxMinFair(served.reduce((a, b) => a + b, 0), asked, weights);
  const x = served.map((s, i) => (fair[i]! > 0 ? s / fair[i]! : 1));
  const sum = x.reduce((a, b) => a + b, 0);
  return (sum * sum) / (x.length * x.reduce((a, b) => a + b * b, 0));
}

/** Water-filling: capacity shared by weight, no tenant given more than it asked for, the rest shared again. */
export function maxMinFair(capacity: number, asked: number[], weights: number[]): number[] {
  const out = asked.map(() => 0);
  let left = capacity;
  let open = asked.map((_, i) => i);
  while (left > 1e-9 && open.length) {
    const w = open.reduce((s, i) => s + weights[i]!, 0);
    const capped = open.filter((i) => asked[i]! - out[i]! <= (left * weights[i]!) / w);
    if (!capped.length) {
      for (const i of open) out[i]! += (left * weights[i]!) / w;
      break;
    }
    for (const i of capped) {
      left -= asked[i]! - out[i]!;
      out[i] = asked[i]!;
    }
    open = open.filter((i) => !capped.includes(i));
  }
  return out;
}
