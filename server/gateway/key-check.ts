import type { KeyVersion, RingName } from "../call-log/keys/keyring.ts";
import { findVersion, holdsFingerprint } from "../call-log/keys/keyring.ts";
import type { Rings } from "../call-log/keys/rings.ts";
import type { CurrentKeys } from "../call-log/keys/registry.ts";

export type LogKeys = Record<RingName, KeyVersion>;

/** Under which keys this gateway logs, or why it cannot: then it answers calls 503 rather than serve them unlogged. */
export interface KeyState {
  logs: LogKeys | null;
  refusing: string | null;
}

const ENV: Record<RingName, string> = { standard: "KULE_SUBJECT_HASH_KEYS", special: "KULE_SPECIAL_SUBJECT_HASH_KEYS" };

/**
 * PostgreSQL says which version of each ring is current; the gateway logs under it only if it
 * holds a key of that name whose fingerprint matches. A gateway holding a newer version keeps
 * logging under the recorded one until an operator makes the newer one current, so a rolling
 * restart with a new ring never stops traffic; one lacking the current key refuses to log.
 */
export function keyState(rings: Rings, current: CurrentKeys): KeyState {
  const logs: Partial<LogKeys> = {};
  for (const ring of ["standard", "special"] as const) {
    const rec = current[ring];
    if (!rec) return { logs: null, refusing: `no current ${ring} key version is recorded in PostgreSQL yet` };
    if (!findVersion(rings[ring], rec.version)) return { logs: null, refusing: `this gateway does not hold ${rec.version}, the current ${ring} key version: restart it with ${ENV[ring]} holding ${rec.version}` };
    if (!holdsFingerprint(rings[ring], rec.version, rec.fingerprint)) return { logs: null, refusing: `this gateway's key ${rec.version} is not the one PostgreSQL records (its fingerprint differs): its rows could not be searched or decrypted` };
    logs[ring] = findVersion(rings[ring], rec.version)!;
  }
  return { logs: logs as LogKeys, refusing: null };
}
