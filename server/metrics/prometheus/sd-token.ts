import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The bearer token Prometheus presents to Kule's service discovery (the list names every
 * replica's address, so it is not public): KULE_PROMETHEUS_SD_TOKEN when set, else one generated
 * once into `<dataDir>/prometheus-sd-token`, a file Kule's own Prometheus reads it from.
 */
const FILE = "prometheus-sd-token";

/** The token kept under `dataDir`, generated on first use. */
export const storedSdToken = (dataDir: string) => storedToken(dataDir, FILE);

/** A random bearer token kept in `dataDir/name`, generated on first use (also the alert webhook's). */
export function storedToken(dataDir: string, name: string): string {
  const file = path.resolve(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // "wx": the app and the script that starts Prometheus keep whichever token was written first.
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return fs.readFileSync(file, "utf8").trim();
}

/**
 * For a script starting Prometheus: the file its `credentials_file` names, in `dir` — holding
 * `token` when one is given (the app was given the same), else the stored one.
 */
export function sdCredentialsFile(dir: string, token?: string, name = FILE): string {
  const file = path.resolve(dir, name);
  if (!token) {
    storedToken(dir, name);
    return file;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, token, { mode: 0o600 });
  return file;
}

/**
 * Whether an Authorization header carries `token` as a bearer token. Compared as SHA-256 digests in
 * constant time: equal-length buffers whatever was sent, so neither the bytes nor the token's length
 * can be learnt from how long a refusal takes.
 */
export function bearerMatches(header: string | null, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(m?.[1] ?? ""), digest(token)) && !!m && token.length > 0;
}
