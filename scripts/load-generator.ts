/**
 * Demo traffic: calls the gateway with the seeded tenants' keys in a realistic mix — streamed
 * chat, embeddings, vision inference — following the hour of day and the day of week in Istanbul
 * (the shape the seeded history has: scripts/lib/day-shape.ts), with a burst now and then. Set
 * KULE_LOAD_DAY_SECONDS to play a whole day faster instead (600 plays a day in ten minutes).
 */
import { hourLoad, istanbulClock, weekdayLoad } from "./lib/day-shape.ts";

const gateway = process.env.KULE_GATEWAY_URL ?? "http://127.0.0.1:8080";
const daySeconds = process.env.KULE_LOAD_DAY_SECONDS ? Number(process.env.KULE_LOAD_DAY_SECONDS) : null;
const peakRps = Number(process.env.KULE_LOAD_PEAK_RPS ?? 12);
const keys = (process.env.KULE_LOAD_KEYS ?? "").split(",").filter(Boolean);

const PROMPTS = ["Kredi başvurumun durumunu özetler misin?", "Summarize this support ticket in two sentences.", "Write a product description for a winter jacket.", "Explain KV caches to a new engineer.", "Müşteri şikayetini sınıflandır: kargo gecikti."];
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;

async function call(path: string, key: string, body: unknown) {
  try {
    const r = await fetch(`${gateway}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
    await r.arrayBuffer();
    return r.status;
  } catch {
    return 0;
  }
}

function oneRequest(key: string) {
  const roll = Math.random();
  if (roll < 0.55) return call("/v1/chat/completions", key, { model: "chat", stream: Math.random() < 0.7, messages: [{ role: "user", content: pick(PROMPTS) }], max_tokens: 32 + Math.floor(Math.random() * 160), user: `u${Math.floor(Math.random() * 50)}` });
  // The 70B over four GPUs: fewer, shorter answers (each decode step is ~3× the 8B's).
  if (roll < 0.6) return call("/v1/chat/completions", key, { model: "chat-large", stream: true, messages: [{ role: "user", content: pick(PROMPTS) }], max_tokens: 16 + Math.floor(Math.random() * 64), user: `u${Math.floor(Math.random() * 50)}` });
  if (roll < 0.82) return call("/v1/embeddings", key, { model: "embed", input: [pick(PROMPTS), pick(PROMPTS)] });
  const pixels = 3 * 64 * 64;
  return call("/v2/models/vision-detect/infer", key, { inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [1, pixels], data: Array.from({ length: pixels }, (_, i) => i % 256) }] });
}

/** Requests per second now: the day's curve (quiet at night, peaks at 11:00 and 15:00), lighter at weekends, plus rare bursts. */
function rateNow(t: number): number {
  const clock = istanbulClock(new Date());
  const load = daySeconds ? hourLoad(((t / daySeconds) * 24) % 24) : hourLoad(clock.hour) * weekdayLoad(clock.weekday);
  const burst = Math.sin(t / 37) > 0.97 ? 2.5 : 1;
  return peakRps * load * burst;
}

async function main() {
  if (!keys.length) throw new Error("Set KULE_LOAD_KEYS to a comma-separated list of API keys (npm run demo does).");
  const secrets = keys;
  const t0 = Date.now();
  let sent = 0;
  const counts = new Map<number, number>();
  setInterval(() => {
    const summary = [...counts].map(([s, n]) => `${s || "no answer"}: ${n}`).join(", ");
    console.log(`${sent} requests sent (${summary})`);
  }, 30_000).unref();
  for (;;) {
    const rps = rateNow((Date.now() - t0) / 1000);
    const key = pick(secrets);
    sent++;
    void oneRequest(key).then((s) => counts.set(s, (counts.get(s) ?? 0) + 1));
    await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * (1000 / rps)));
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
