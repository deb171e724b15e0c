import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import type { PgBinaries } from "./embedded-process.ts";

/** Who runs the embedded PostgreSQL, from which binaries, on which data directory. */
export interface RunAs {
  uid?: number;
  gid?: number;
  /** The package's `native` folder: bin/, lib/, share/. */
  binDir: string;
  dataDir: string;
}

const WHERE_ROOT_KEEPS_IT = "/var/lib/kule";

function idsOf(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** The unprivileged user PostgreSQL runs as under root: `postgres`, created if the machine has none. */
function postgresUser(): { uid: number; gid: number } {
  const ids = idsOf("postgres");
  if (ids) return ids;
  execFileSync("groupadd", ["--system", "postgres"]);
  execFileSync("useradd", ["--system", "--gid", "postgres", "--no-create-home", "postgres"]);
  return idsOf("postgres")!;
}

/** Whether `user` can do `test -<op> file`: the ground truth, every parent folder's mode included. */
function can(user: { uid: number; gid: number }, op: "x" | "w", file: string): boolean {
  return spawnSync("/bin/sh", ["-c", `test -${op} "$1"`, "sh", file], { uid: user.uid, gid: user.gid }).status === 0;
}

/** A folder of its own under /var/lib/kule (the temp folder if that can't be made), that every user can enter. */
function reachableHome(name: string): string {
  for (const base of [WHERE_ROOT_KEEPS_IT, path.join(os.tmpdir(), "kule")]) {
    try {
      fs.mkdirSync(base, { recursive: true, mode: 0o755 });
      fs.chmodSync(base, 0o755);
      return path.join(base, name);
    } catch {
      /* try the next */
    }
  }
  throw new Error(`no folder the postgres user can reach could be made under ${WHERE_ROOT_KEEPS_IT} or ${os.tmpdir()}`);
}

const shortHash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

/**
 * Where the embedded PostgreSQL can run. Not root: as this user, from the package, on the data
 * directory asked for. Root: as `postgres`; binaries it cannot reach are copied to a folder it can
 * (once), and a data directory it cannot reach is kept in a folder of its own instead, with a
 * symlink at the asked place so people find it.
 */
export async function runAs(binaries: PgBinaries, dataDir: string, log: (line: string) => void): Promise<RunAs> {
  if (process.getuid?.() !== 0) return { binDir: binaries.dir, dataDir };
  const user = postgresUser();

  let binDir = binaries.dir;
  if (!can(user, "x", path.join(binaries.dir, "bin", "postgres"))) {
    binDir = reachableHome(`postgres-${shortHash(fs.realpathSync(binaries.dir))}`);
    if (!fs.existsSync(path.join(binDir, "bin", "postgres"))) {
      fs.cpSync(binaries.dir, binDir, { recursive: true, verbatimSymlinks: true });
      fs.chmodSync(binDir, 0o755);
    }
    log(`The postgres user cannot reach ${binaries.dir}: running PostgreSQL from a copy in ${binDir}.`);
  }

  let data = dataDir;
  const existing = fs.existsSync(path.join(dataDir, "PG_VERSION"));
  if (!existing || !can(user, "w", dataDir)) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    const probe = fs.existsSync(dataDir) ? dataDir : path.dirname(dataDir);
    if (!existing && !can(user, "x", probe)) {
      data = reachableHome(`data-${shortHash(path.resolve(dataDir))}`);
      log(`The postgres user cannot enter ${path.dirname(dataDir)}: the embedded PostgreSQL keeps its data in ${data} (linked from ${dataDir}).`);
      if (!fs.existsSync(dataDir)) fs.symlinkSync(data, dataDir);
    }
  }
  fs.mkdirSync(data, { recursive: true, mode: 0o700 });
  fs.chownSync(data, user.uid, user.gid);
  return { ...user, binDir, dataDir: fs.realpathSync(data) };
}
