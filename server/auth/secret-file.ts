import fs from "node:fs";
import path from "node:path";
import { env } from "../env.ts";

/**
 * A secret kept in a file (mode 600) under the data directory, generated once: the auth secret,
 * the data-subject hash key, the seal signing key. When two processes start together, the first
 * write wins and both read it ("wx"), so every process on a machine agrees without setup.
 */
export function secretFile(name: string, generate: () => string, dataDir: string = env.KULE_DATA_DIR): string {
  const file = path.resolve(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, generate(), { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}
