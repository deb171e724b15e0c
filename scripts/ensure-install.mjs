// First step of `npm run demo` and `npm test`: installs dependencies when they are missing or
// older than package-lock.json, and generates the Prisma client. Plain Node: tsx may not exist yet.
import { execSync } from "node:child_process";
import fs from "node:fs";

const run = (cmd) => execSync(cmd, { stdio: "inherit" });
const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

const installed = mtime("node_modules/.package-lock.json");
if (!installed || mtime("package-lock.json") > installed) {
  console.log("Installing dependencies (npm ci)…");
  run("npm ci --no-audit --no-fund");
}
if (!fs.existsSync("server/db/generated/client.ts") || mtime("prisma/schema.prisma") > mtime("server/db/generated/client.ts")) {
  run("npx tsx scripts/prisma-generate.ts");
}
