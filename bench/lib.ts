import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import autocannon from "autocannon";

export const cores = os.cpus().length;

export function writeResult(name: string, figures: Record<string, unknown>) {
  const file = path.join("bench", "results", `${name}.json`);
  const body = { cores, measured_at: new Date().toISOString(), node: process.version, ...figures };
  fs.writeFileSync(file, JSON.stringify(body, null, 2) + "\n");
  console.log(`${file}: ${JSON.stringify(body)}`);
}

/** Starts a TypeScript entry in its own process and resolves with the first JSON line it prints. */
export async function startProcess<T>(entry: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", entry], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  const lines = readline.createInterface({ input: child.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    lines.once("line", (l) => resolve(JSON.parse(l) as T));
    child.once("exit", (c) => reject(new Error(`${entry} exited (${c}) before it was ready`)));
  });
  return { child, info };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Closed-loop throughput: as many requests as `connections` callers can push in `seconds`. */
export function throughput(opts: { url: string; body: unknown; connections: number; seconds: number }) {
  return new Promise<{ rps: number; errors: number; non2xx: number; p50: number; p99: number }>((resolve, reject) => {
    autocannon(
      { url: opts.url, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts.body), connections: opts.connections, duration: opts.seconds },
      (err, r) => (err ? reject(err) : resolve({ rps: r.requests.average, errors: r.errors, non2xx: r.non2xx, p50: r.latency.p50, p99: r.latency.p99 })),
    );
  });
}
