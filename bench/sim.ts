/**
 * The simulator must not be what a benchmark of Kule measures: with its latency model off it has
 * to sustain at least 2,000 small completions per second on a 2-core machine, while the load
 * generator (this process) shares those cores.
 */
import { median, startProcess, throughput, writeResult } from "./lib.ts";

export async function benchSim() {
  const { child, info } = await startProcess<{ url: string }>("bench/sim-server.ts");
  try {
    const body = { model: "chat", messages: [{ role: "user", content: "Say hello." }], max_tokens: 16 };
    const url = `${info.url}/v1/chat/completions`;
    await throughput({ url, body, connections: 32, seconds: 2 }); // warm-up
    const rounds = [];
    for (let i = 0; i < 3; i++) rounds.push(await throughput({ url, body, connections: 32, seconds: 5 }));
    const rps = Math.round(median(rounds.map((r) => r.rps)));
    writeResult("sim", {
      requests_per_second: rps,
      target_requests_per_second: 2000,
      rounds_requests_per_second: rounds.map((r) => Math.round(r.rps)),
      errors: rounds.reduce((s, r) => s + r.errors + r.non2xx, 0),
      latency_ms_p50: median(rounds.map((r) => r.p50)),
      latency_ms_p99: median(rounds.map((r) => r.p99)),
      note: "Closed loop, 32 connections, 16-token chat completions, latency model off; median of 3 rounds of 5 s.",
    });
  } finally {
    child.kill("SIGTERM");
  }
}
