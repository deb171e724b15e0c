import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { childEnv } from "../env.ts";

export interface GatewayProcess {
  child: ChildProcess;
  /** The first line it printed (the address it serves on), or its error and exit code if it died first. */
  first: Promise<{ line: string; code: number | null }>;
  base: string;
  admin: string;
  stopped: () => Promise<number | null>;
}

/**
 * `npm run gateway` (server/gateway/main.ts) as its own node process, with the given environment
 * over this one's. `node --import tsx`, not tsx's CLI: the pid is the gateway's own (SIGKILL
 * reaches it, and a multi-process gateway's workers are its children).
 */
export function spawnGateway(port: number, env: Record<string, string | undefined>): GatewayProcess {
  const adminPort = port + 5000;
  const child = spawn(process.execPath, ["--import", "tsx", "server/gateway/main.ts"], {
    env: childEnv({ KULE_GATEWAY_PORT: String(port), KULE_GATEWAY_ADMIN_PORT: String(adminPort), REDIS_URL: undefined, KULE_GATEWAY_WORKERS: undefined, KULE_GATEWAY_SPOOL_DIR: undefined, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const first = new Promise<{ line: string; code: number | null }>((resolve) => {
    readline.createInterface({ input: child.stdout! }).once("line", (line) => resolve({ line, code: null }));
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.once("exit", (code) => resolve({ line: err.trim(), code }));
  });
  const stopped = () => new Promise<number | null>((r) => (child.exitCode !== null || child.signalCode !== null ? r(child.exitCode) : child.once("exit", (c) => r(c))));
  return { child, first, base: `http://127.0.0.1:${port}`, admin: `http://127.0.0.1:${adminPort}`, stopped };
}

/** A port for a test's gateway, away from the ones other test files pick. */
export const gatewayPort = () => 21000 + Math.floor(Math.random() * 4000);
