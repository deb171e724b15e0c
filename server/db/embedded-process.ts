import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import type { RunAs } from "./embedded-user.ts";
import { childEnv } from "../env.ts";

export interface PgBinaries {
  /** The package's `native` folder: bin/, lib/, share/. */
  dir: string;
}

const WAYS_OUT = "Clone Kule into a folder other users can enter, or set DATABASE_URL to a PostgreSQL server.";

/** The embedded PostgreSQL could not start; the message names the folder and the ways out. */
export class EmbeddedPostgresError extends Error {}

function failure(what: string, dir: string, detail: string): Error {
  return new EmbeddedPostgresError(`The embedded PostgreSQL could not ${what} (data in ${dir}): ${detail}. ${WAYS_OUT}`);
}

/** Runs one binary as `user` and resolves with its stderr once it exits 0. A spawn error is a rejection, never a crash. */
function run(user: RunAs, bin: string, args: string[], until?: (stderr: string) => boolean): Promise<{ child: ChildProcess; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The child gets this process's environment (childEnv) with messages in the C locale.
    const child = spawn(path.join(user.binDir, "bin", bin), args, { uid: user.uid, gid: user.gid, env: childEnv({ LC_ALL: "C" }), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let started = false;
    child.stdout?.resume();
    child.stderr?.on("data", (c: Buffer) => {
      if (started) return; // a running server's log is not kept
      stderr += c.toString("utf8");
      if (until?.(stderr)) {
        started = true;
        resolve({ child, stderr });
      }
    });
    child.once("error", (e) => reject(failure(`start ${bin}`, user.dataDir, e.message)));
    child.once("close", (code) => {
      if (code === 0 && !until) resolve({ child, stderr });
      else reject(failure(`run ${bin}`, user.dataDir, stderr.trim().split("\n").slice(-3).join(" ") || `exit code ${code}`));
    });
  });
}

/** initdb (once, for a fresh data directory), then the server; resolves when it accepts connections. */
export async function spawnPostgres(user: RunAs, opts: { port: number; fresh: boolean }): Promise<{ stop: () => Promise<void> }> {
  if (opts.fresh) {
    const pwfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kule-pg-")), "pw");
    fs.writeFileSync(pwfile, "postgres\n", { mode: 0o600 });
    if (user.uid !== undefined) for (const p of [path.dirname(pwfile), pwfile]) fs.chownSync(p, user.uid, user.gid!);
    try {
      await run(user, "initdb", [`--pgdata=${user.dataDir}`, "--auth=password", "--username=postgres", `--pwfile=${pwfile}`, "--encoding=UTF8", "--no-locale"]);
    } finally {
      fs.rmSync(path.dirname(pwfile), { recursive: true, force: true });
    }
  }
  const { child } = await run(user, "postgres", ["-D", user.dataDir, "-p", String(opts.port), "-c", "listen_addresses=127.0.0.1"], (s) => s.includes("database system is ready to accept connections"));
  // If this process ends without stopping it, the server goes with it (a later start would reuse it otherwise).
  const onExit = () => child.kill("SIGINT");
  process.once("exit", onExit);
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        process.off("exit", onExit);
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      }),
  };
}
