/**
 * `npm run demo`: everything on embedded defaults. Starts PostgreSQL (embedded unless
 * DATABASE_URL is set), migrates, seeds, builds when needed, starts the app and prints the URL,
 * the demo logins and each seeded tenant's API key.
 */
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { createDb } from "../server/db/client.ts";
import { deployMigrations } from "./migrate.ts";
import { seed } from "../prisma/seed.ts";
import { authSecret } from "./lib/auth-secret.ts";
import { buildIfStale } from "./lib/build.ts";
import { portFree, start, waitForHttp } from "./lib/proc.ts";

const dataDir = process.env.KULE_DATA_DIR ?? ".data";
const port = Number(process.env.PORT ?? 3000);

async function main() {
  const t0 = Date.now();
  if (!(await portFree(port))) {
    throw new Error(`Port ${port} is already in use (another Kule?). Stop what listens there, or start with PORT=${port + 1} npm run demo.`);
  }
  const database = await resolveDatabaseUrl();
  console.log(database.embedded ? `Embedded PostgreSQL running (${new URL(database.url).host}).` : "Using DATABASE_URL.");
  const applied = await deployMigrations(database.url);
  if (applied.length) console.log(`Applied ${applied.length} migration(s).`);
  const db = createDb(database.url);
  const seeded = await seed(db);
  await db.$disconnect();

  await buildIfStale();
  const env = { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: authSecret(dataDir), PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" };
  // Next's own binary, not npx: a signal to it then reaches the server itself.
  const app = start("app", process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], env);
  const children = [app];

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill("SIGTERM");
    await database.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  app.on("exit", (code) => {
    if (!stopping) {
      console.error(`The app exited (${code}).`);
      void stop(1);
    }
  });

  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/login`, 60_000);
  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`
Kule is up in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${url}

Sign in as:
${seeded.logins.map((l) => `  ${pad(l.role, 9)} ${pad(l.email, 32)} ${l.password}`).join("\n")}

API keys of the seeded tenants (for the gateway):
${seeded.apiKeys.map((k) => `  ${pad(k.tenantSlug, 18)} ${k.secret}`).join("\n")}

Press Ctrl+C to stop.`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
