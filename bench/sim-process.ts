/** The simulator as a process of its own for benchmarks (bench/routing-sim.ts), and reading its replicas' metrics. */
import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";

/** The sum of a metric's series on a replica's /metrics page. */
export async function simMetric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "gm"))) sum += Number(m[1]);
  return sum;
}

/** The simulator in one process of its own (node --import tsx, no tsx launcher in between), so a SIGKILL kills the replicas. */
export async function startSim(ids: string[], slug = "chat") {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/routing-sim.ts"], { env: { ...process.env, BENCH_REPLICAS: ids.join(","), BENCH_SLUG: slug }, stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (c) => reject(new Error(`bench/routing-sim.ts exited (${c}) before it was ready`)));
  });
  return { child, urls: (JSON.parse(line) as { urls: Record<string, string> }).urls };
}

/** Stops a child process (SIGTERM) and waits for it to exit. */
export const stopChild = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGTERM"))));
