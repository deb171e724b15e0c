import pg from "pg";

/** The same server URL pointing at another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server behind `url`, so test runs never see each other's data. */
export async function createScratchDatabase(url: string, prefix: string): Promise<string> {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  await admin(url, (c) => c.query(`CREATE DATABASE "${name}"`));
  return withDatabase(url, name);
}

export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await admin(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
