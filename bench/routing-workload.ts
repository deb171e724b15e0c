/**
 * The routing bench's workload: a multi-tenant chat service whose calls share prefixes. 20 system
 * prompts of 1–3k tokens (one per tenant's assistant); conversations arrive as a Poisson process,
 * each on one system prompt, of 3–8 turns: every turn resends the system prompt and the whole
 * conversation so far plus a new user message of 20–80 tokens, after a think time of about a
 * second. Seeded, so every routing policy gets the very same calls.
 */

const VOCAB = (
  "the cluster serves models across nodes and each replica answers requests with tokens while the gateway routes traffic between versions " +
  "so operators can watch latency error budgets and cost per tenant in Turkey policy refund invoice shipment account order contract " +
  "müşteri sipariş fatura iade kargo hesap sözleşme destek yanıt kısa nazik açık"
).split(" ");

/** mulberry32: a small seeded PRNG, so runs are comparable. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (r: () => number, n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(r() * VOCAB.length)]).join(" ");

export const SYSTEM_PROMPTS = 20;

export function systemPrompts(seed = 1): string[] {
  const r = rng(seed);
  return Array.from({ length: SYSTEM_PROMPTS }, (_, i) => `You are assistant ${i} of tenant ${i}. ${words(r, 1000 + Math.floor(r() * 2000))}`);
}

export interface Turn {
  userText: string;
  thinkMs: number;
}

export interface Conversation {
  startMs: number;
  system: number;
  turns: Turn[];
}

/** Conversations arriving at `perSecond` for `seconds`. */
export function conversations(perSecond: number, seconds: number, seed = 2): Conversation[] {
  const r = rng(seed);
  const out: Conversation[] = [];
  let t = 0;
  for (;;) {
    t += (-Math.log(1 - r()) / perSecond) * 1000;
    if (t > seconds * 1000) break;
    const n = 3 + Math.floor(r() * 6);
    out.push({ startMs: t, system: Math.floor(r() * SYSTEM_PROMPTS), turns: Array.from({ length: n }, () => ({ userText: words(r, 20 + Math.floor(r() * 60)), thinkMs: 500 + r() * 1000 })) });
  }
  return out;
}

export const MEAN_TURNS = 5.5;

export interface TurnResult {
  ok: boolean;
  ttftMs: number;
  text: string;
}

type Message = { role: string; content: string };

/** Plays the conversations: each turn sent by `send`, its answer appended to the conversation's history. */
export async function play(convs: Conversation[], prompts: string[], send: (messages: Message[]) => Promise<TurnResult>) {
  const ttfts: number[] = [];
  let failed = 0;
  const t0 = performance.now();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  await Promise.all(
    convs.map(async (c) => {
      await sleep(c.startMs - (performance.now() - t0));
      const messages: Message[] = [{ role: "system", content: prompts[c.system]! }];
      for (const turn of c.turns) {
        messages.push({ role: "user", content: turn.userText });
        const r = await send(messages);
        if (process.env.BENCH_TRACE) console.log(`conv ${c.system} turn ${messages.length} ${r.ok} ${r.ttftMs.toFixed(0)}`);
        if (!r.ok) {
          failed++;
          return;
        }
        ttfts.push(r.ttftMs);
        messages.push({ role: "assistant", content: r.text });
        await sleep(turn.thinkMs);
      }
    }),
  );
  return { ttfts, failed };
}

/** One streamed chat call: TTFT to the first content delta, the answer's text. */
export async function streamChat(url: string, headers: Record<string, string>, model: string, messages: Message[], maxTokens: number): Promise<TurnResult> {
  const t = performance.now();
  try {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ model, messages, max_tokens: maxTokens, stream: true }) });
    if (res.status !== 200 || !res.body) {
      await res.text().catch(() => "");
      return { ok: false, ttftMs: 0, text: "" };
    }
    let ttft = 0;
    let text = "";
    let carry = "";
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      carry += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = carry.indexOf("\n\n")) >= 0) {
        const event = carry.slice(0, cut);
        carry = carry.slice(cut + 2);
        if (!event.startsWith("data: {")) continue;
        const piece = (JSON.parse(event.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content;
        if (piece) {
          if (!ttft) ttft = performance.now() - t;
          text += piece;
        }
      }
    }
    return { ok: ttft > 0, ttftMs: ttft, text };
  } catch {
    return { ok: false, ttftMs: 0, text: "" };
  }
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
}
