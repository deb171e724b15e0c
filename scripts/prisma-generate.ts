// `prisma generate` needs no schema engine, but the CLI insists on finding (or downloading) one.
// Pointing it at any existing file skips the download; never do this for migrate (see migrate.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const placeholder = path.join(os.tmpdir(), "kule-no-schema-engine");
fs.writeFileSync(placeholder, "");
execFileSync("npx", ["prisma", "generate"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: placeholder, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
console.log("Prisma client generated in server/db/generated");
