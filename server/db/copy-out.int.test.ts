import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { copyOut } from "./copy-out.ts";

/** PostgreSQL's CopyDone message: 'c' and its length, 4. */
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

let proxy: net.Server;
let client: pg.Client;

/**
 * A TCP hop in front of the real PostgreSQL that cuts the server's bytes right after CopyDone and
 * holds the rest (CommandComplete, ReadyForQuery) back for 50 ms, as a loaded network may.
 */
beforeAll(async () => {
  const target = new URL(inject("databaseUrl"));
  proxy = net.createServer((down) => {
    const up = net.connect(Number(target.port || 5432), target.hostname);
    down.pipe(up);
    up.on("data", (chunk: Buffer) => {
      const at = chunk.indexOf(COPY_DONE);
      if (at < 0) return void down.write(chunk);
      down.write(chunk.subarray(0, at + COPY_DONE.length));
      const rest = chunk.subarray(at + COPY_DONE.length);
      up.pause();
      setTimeout(() => {
        down.write(rest);
        up.resume();
      }, 50);
    });
    const close = () => (up.destroy(), down.destroy());
    up.on("error", close).on("end", close);
    down.on("error", close).on("end", close);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((proxy.address() as net.AddressInfo).port);
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  proxy?.close();
});

describe("a COPY's row count", () => {
  it("is PostgreSQL's own even when its confirmation arrives after the last row", async () => {
    const copy = copyOut(client, "COPY (SELECT g, 'row ' || g FROM generate_series(1, 500) g) TO STDOUT");
    let bytes = 0;
    for await (const chunk of copy.stream) bytes += chunk.length;
    expect(bytes).toBeGreaterThan(3000);
    expect(await copy.rowCount()).toBe(500);
  });

  it("of an empty result is 0, and the connection serves the next query", async () => {
    const copy = copyOut(client, "COPY (SELECT 1 WHERE false) TO STDOUT");
    let chunks = 0;
    for await (const chunk of copy.stream) chunks += chunk.length;
    expect(chunks).toBe(0);
    expect(await copy.rowCount()).toBe(0);
    expect((await client.query<{ n: number }>("SELECT 7 AS n")).rows[0]!.n).toBe(7);
  });
});
