import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** AUTH_SECRET from the environment, else one generated once and kept under the data dir. */
export function authSecret(dataDir: string): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  const file = path.resolve(dataDir, "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return fs.readFileSync(file, "utf8").trim();
}
