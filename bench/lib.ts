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

/** Every process's CPU seconds so far (user + system), by pid, and each one's parent, from /proc. */
function processTable(): Map<number, { ppid: number; comm: string; cpu: number }> {
  const ticksPerSecond = 100; // USER_HZ: 100 on Linux everywhere that matters
  const table = new Map<number, { ppid: number; comm: string; cpu: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited between the listing and the read
    }
    // The command name is in parentheses and may hold spaces; the fields after it are positional.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    table.set(Number(entry), { ppid: Number(fields[1]), comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), cpu: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond });
  }
  return table;
}

/**
 * CPU meters for groups of processes (a process and everything it started, or every process of a
 * name), read before and after a measurement: `since(before)` gives each group's CPU seconds in
 * between. A process that exits meanwhile is not counted (its time is gone from /proc).
 */
export function cpuMeter(groups: Record<string, { root: number } | { comm: string }>) {
  const read = () => {
    const table = processTable();
    const out: Record<string, Map<number, number>> = {};
    for (const [name, g] of Object.entries(groups)) {
      const pids = new Set<number>();
      if ("root" in g) {
        pids.add(g.root);
        for (let grew = true; grew; ) {
          grew = false;
          for (const [pid, p] of table) {
            if (pids.has(pid) || !pids.has(p.ppid)) continue;
            pids.add(pid);
            grew = true;
          }
        }
      } else for (const [pid, p] of table) if (p.comm === g.comm) pids.add(pid);
      out[name] = new Map([...pids].filter((pid) => table.has(pid)).map((pid) => [pid, table.get(pid)!.cpu]));
    }
    return out;
  };
  return {
    read,
    since(before: ReturnType<typeof read>): Record<string, number> {
      const now = read();
      return Object.fromEntries(Object.entries(now).map(([name, pids]) => [name, [...pids].reduce((s, [pid, cpu]) => s + cpu - (before[name]?.get(pid) ?? 0), 0)]));
    },
  };
}
