/**
 * Creates and applies Prisma migrations through Prisma's WebAssembly schema engine, which
 * works offline (the CLI's native engine is a download). Applied migrations are recorded in
 * `_prisma_migrations` exactly as `prisma migrate deploy` records them.
 *
 *   tsx scripts/migrate.ts deploy          apply pending migrations to DATABASE_URL
 *   tsx scripts/migrate.ts create <name>   write prisma/migrations/<ts>_<name>/migration.sql
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemaPath = path.join(root, "prisma/schema.prisma");
const migrationsDir = path.join(root, "prisma/migrations");
// The schema as of the newest migration: `create` diffs against it (no shadow database needed).
const snapshotPath = path.join(migrationsDir, "schema.snapshot.prisma");

type Engine = Awaited<ReturnType<typeof import("@prisma/schema-engine-wasm").SchemaEngine.new>>;

/**
 * The pg driver adapter runs a migration script by splitting it on every ";", which breaks
 * dollar-quoted function bodies (our NOTIFY triggers). Send the script whole instead: PostgreSQL
 * runs a multi-statement simple query in one implicit transaction, so a migration applies entirely
 * or not at all, as the native engine does.
 */
function wholeScriptPg(connectionString: string) {
  const factory = new PrismaPg({ connectionString });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script: string) => {
      await (adapter.underlyingDriver() as { query(sql: string): Promise<unknown> }).query(script);
    };
    return adapter;
  };
  return factory;
}

async function loadEngine(databaseUrl: string): Promise<Engine> {
  // The package imports its .wasm as an ES module, which Node 20 cannot; instantiate it by hand.
  const pkgDir = path.dirname(createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm"));
  const bg = await import(pathToFileURL(path.join(pkgDir, "schema_engine_bg.js")).href);
  const bytes = fs.readFileSync(path.join(pkgDir, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  const adapter = bindMigrationAwareSqlAdapterFactory(wholeScriptPg(databaseUrl));
  const schema = fs.readFileSync(schemaPath, "utf8");
  return bg.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);
}

function migrationsList() {
  const dirs = fs.existsSync(migrationsDir)
    ? fs.readdirSync(migrationsDir).filter((d) => fs.existsSync(path.join(migrationsDir, d, "migration.sql"))).sort()
    : [];
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((d) => ({
      path: d,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok" as const, value: fs.readFileSync(path.join(migrationsDir, d, "migration.sql"), "utf8") },
      },
    })),
  };
}

export async function deployMigrations(databaseUrl: string): Promise<string[]> {
  const engine = await loadEngine(databaseUrl);
  try {
    const out = await engine.applyMigrations({ migrationsList: migrationsList(), filters: { externalTables: [], externalEnums: [] } });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

async function createMigration(databaseUrl: string, name: string) {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error("migration name: use lowercase letters, digits and _");
  const engine = await loadEngine(databaseUrl);
  try {
    const current = fs.readFileSync(schemaPath, "utf8");
    const from = fs.existsSync(snapshotPath)
      ? { tag: "schemaDatamodel" as const, files: [{ path: snapshotPath, content: fs.readFileSync(snapshotPath, "utf8") }] }
      : { tag: "empty" as const };
    const to = { tag: "schemaDatamodel" as const, files: [{ path: schemaPath, content: current }] };
    const res = await engine.diff({ from, to, script: true, exitCode: null, filters: { externalTables: [], externalEnums: [] } });
    const sql = res.stdout ?? "";
    if (!sql.trim() || /empty migration/i.test(sql)) {
      console.log("No schema changes: nothing to write.");
      return;
    }
    const stamp = new Date().toISOString().replace(/[-:TZ.]/g, "").slice(0, 14);
    const dir = path.join(migrationsDir, `${stamp}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    fs.writeFileSync(snapshotPath, current);
    const lockPath = path.join(migrationsDir, "migration_lock.toml");
    if (!fs.existsSync(lockPath)) fs.writeFileSync(lockPath, 'provider = "postgresql"\n');
    console.log(`Wrote ${path.relative(root, dir)}/migration.sql`);
  } finally {
    engine.free();
  }
}

async function main() {
  const [cmd, name] = process.argv.slice(2);
  const { resolveDatabaseUrl } = await import("../server/db/url.ts");
  const { url, stop } = await resolveDatabaseUrl();
  try {
    if (cmd === "deploy") {
      const applied = await deployMigrations(url);
      console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.");
    } else if (cmd === "create" && name) {
      await createMigration(url, name);
    } else {
      console.error("usage: migrate.ts deploy | create <name>");
      process.exitCode = 2;
    }
  } finally {
    await stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
