import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { packagedBinaries, startEmbeddedPostgres } from "./embedded.ts";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

// A clone in a folder other users can't enter, as a root home folder is: the package's binaries
// and the data directory both live inside it.
const closed = fs.mkdtempSync(path.join(os.tmpdir(), "kule-closed-"));
fs.chmodSync(closed, 0o700);
const lines: string[] = [];
afterAll(() => {
  // What it put elsewhere (as root) goes too: the copies are named for this run's folders.
  for (const m of lines.join("\n").matchAll(/(\/var\/lib\/kule\/(?:postgres|data)-[0-9a-f]+)/g)) fs.rmSync(m[1]!, { recursive: true, force: true });
  fs.rmSync(closed, { recursive: true, force: true });
});

describe("the embedded PostgreSQL", () => {
  it("starts from a clone in a folder only its owner can enter, keeps its data across restarts, and says where", async () => {
    const binDir = path.join(closed, "node_modules", "native");
    fs.cpSync(packagedBinaries().dir, binDir, { recursive: true, verbatimSymlinks: true });
    const dataDir = path.join(closed, ".data");
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, binaries: { dir: binDir }, log: (l) => lines.push(l) });
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query("CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)");
    await client.end();
    await first.stop();

    const again = await startEmbeddedPostgres({ dataDir, port, binaries: { dir: binDir }, log: (l) => lines.push(l) });
    const c2 = new pg.Client({ connectionString: again.url });
    await c2.connect();
    expect((await c2.query("SELECT v FROM kept")).rows).toEqual([{ v: 42 }]);
    await c2.end();
    await again.stop();
    if (process.getuid?.() === 0) {
      // As root it runs as `postgres`, who can reach neither: it said where it went instead.
      expect(lines.join("\n")).toMatch(/cannot reach .*running PostgreSQL from a copy in \/var\/lib\/kule/);
      expect(lines.join("\n")).toMatch(/cannot enter .*keeps its data in \/var\/lib\/kule\/data-/);
      expect(fs.lstatSync(path.join(dataDir, "pg")).isSymbolicLink()).toBe(true);
    }
  }, 60_000);
});
