import { randomBytes } from "node:crypto";
import { secretFile } from "../../server/auth/secret-file.ts";

/** AUTH_SECRET from the environment, else one generated once and kept under the data dir. */
export function authSecret(dataDir: string): string {
  return process.env.AUTH_SECRET || secretFile("auth-secret", () => randomBytes(32).toString("base64url"), dataDir);
}
