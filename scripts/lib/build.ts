import fs from "node:fs";
import path from "node:path";
import { run } from "./proc.ts";

const SOURCES = ["app", "components", "server", "public", "next.config.ts", "package-lock.json"];

function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of fs.readdirSync(p)) if (e !== "generated") m = Math.max(m, newest(path.join(p, e)));
  return m;
}

/** Runs `next build` only when a source is newer than the last build (later demo starts stay fast). */
export async function buildIfStale(): Promise<void> {
  const built = fs.existsSync(".next/BUILD_ID") ? fs.statSync(".next/BUILD_ID").mtimeMs : 0;
  if (built && SOURCES.every((s) => newest(s) < built)) return;
  console.log("Building the app (next build, about a minute on 2 cores)…");
  await run("npx", ["next", "build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
}
