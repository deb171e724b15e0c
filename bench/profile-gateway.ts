/**
 * Where a loaded gateway's CPU goes (issue #35's evidence): the benchmark's fixture and upstream,
 * one gateway process under `node --cpu-prof`, 1,000 calls/s for 15 s from bench/open-loop.ts;
 * then each sample's time is charged to the innermost Kule function on its stack (what that
 * function and the libraries it calls cost), µs per call. Run on demand, not by `npm run bench`:
 *
 *   npx tsx bench/profile-gateway.ts        (the .cpuprofile stays in the printed folder, for Chrome's DevTools)
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createScratchDatabase, dropDatabase } from "../scripts/lib/database.ts";
import { deployMigrations } from "../scripts/migrate.ts";
import { BENCH_KEY, writeGatewayFixture } from "./gateway-fixture.ts";
import { startProcess } from "./lib.ts";

const RATE = 1000;
const SECONDS = 15;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Busy time by the innermost Kule (server/…) frame on each sample's stack, µs per call. */
export function chargeToKule(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, calls: number): { busyMsPerCall: number; rows: [string, number][] } {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const by = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const t = profile.timeDeltas[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === "(idle)") return;
    busy += t;
    let key = "(no Kule frame: Node internals, sockets, GC)";
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      const file = /\/(server\/[^?]+)$/.exec(cf.url)?.[1];
      if (file) {
        key = `${file} ${cf.functionName || "(anonymous)"}`;
        break;
      }
    }
    by.set(key, (by.get(key) ?? 0) + t);
  });
  return { busyMsPerCall: busy / 1000 / calls, rows: [...by].sort((a, b) => b[1] - a[1]).map(([k, t]) => [k, t / calls]) };
}

async function main() {
  const server = await resolveDatabaseUrl();
  const databaseUrl = await createScratchDatabase(server.url, "kule_profile");
  const upstream = await startProcess<{ url: string; visionUrl: string }>("bench/sim-server.ts");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-gateway-profile-"));
  try {
    await deployMigrations(databaseUrl);
    await writeGatewayFixture(databaseUrl, upstream.info.url, upstream.info.visionUrl);
    // Without the profiler (BENCH_NO_PROF=1), the run reports the gateway's event-loop stalls and GC only.
    const prof = process.env.BENCH_NO_PROF ? [] : ["--cpu-prof", `--cpu-prof-dir=${dir}`];
    const gw = spawn(process.execPath, [...prof, "--import", "tsx", "bench/gateway-server.ts"], { env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_LOOP_REPORT: "1" }, stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise<string>((r) => readline.createInterface({ input: gw.stdout! }).once("line", (l) => r((JSON.parse(l) as { url: string }).url)));
    const body = JSON.stringify({ model: "chat", messages: [{ role: "user", content: "Say hello." }], max_tokens: 8 });
    const load = (seconds: number) => execFileSync(process.execPath, ["--import", "tsx", "bench/open-loop.ts", JSON.stringify({ url: `${url}/v1/chat/completions`, rate: RATE, seconds, connections: 256, headers: { authorization: `Bearer ${BENCH_KEY}` }, body })], { encoding: "utf8" });
    load(3); // warm-up: JIT, connections, key caches
    console.log(load(SECONDS).trim());
    gw.kill("SIGTERM");
    await new Promise((r) => gw.once("exit", r));
    if (!prof.length) return;
    // The main thread's profile is the largest; the call-log worker writes its own.
    const file = fs.readdirSync(dir).map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!;
    const { busyMsPerCall, rows } = chargeToKule(JSON.parse(fs.readFileSync(file, "utf8")), RATE * (SECONDS + 3));
    console.log(`${file}\nbusy ${(busyMsPerCall * 1000).toFixed(0)} µs a call (under the profiler, which inflates it), charged to:`);
    for (const [k, us] of rows.slice(0, 20)) console.log(`${us.toFixed(1).padStart(7)} µs  ${k}`);
  } finally {
    upstream.child.kill("SIGTERM");
    await dropDatabase(databaseUrl).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
