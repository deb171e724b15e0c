import fs from "node:fs";
import path from "node:path";
import { env } from "../env.ts";

/**
 * A secret kept in a file (mode 600) under the data directory, generated once: the auth secret,
 * the data-subject hash key, the seal signing key. When two processes start together, the first
 * link wins and both read it, so every process on a machine agrees without setup.
 */
export function secretFile(name: string, generate: () => string, dataDir: string = env.KULE_DATA_DIR): string {
  const file = path.resolve(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written whole under a name of this process's, then linked into place: a process starting
    // meanwhile never reads a file created but not yet written (an empty key of its own).
    const draft = `${file}.${process.pid}.${Date.now()}`;
    fs.writeFileSync(draft, generate(), { mode: 0o600, flag: "wx" });
    try {
      fs.linkSync(draft, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      fs.unlinkSync(draft);
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}
