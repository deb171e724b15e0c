import type pg from "pg";
import type { RingName } from "./keyring.ts";
import { allVersions, type Rings } from "./rings.ts";

type Client = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

export interface RecordedKey {
  version: string;
  fingerprint: string;
}
export type CurrentKeys = Record<RingName, RecordedKey | null>;

/** The current version of each ring as PostgreSQL records it: the latest made current, not retired. */
export const CURRENT_KEYS_SQL = `SELECT DISTINCT ON (ring) ring, version, fingerprint FROM "SubjectKeyVersion"
  WHERE "currentSince" IS NOT NULL AND "retiredAt" IS NULL ORDER BY ring, "currentSince" DESC`;

export function currentKeysOf(rows: { ring: string; version: string; fingerprint: string }[]): CurrentKeys {
  const of = (ring: RingName) => rows.find((r) => r.ring === ring) ?? null;
  const pick = (r: { version: string; fingerprint: string } | null) => (r ? { version: r.version, fingerprint: r.fingerprint } : null);
  return { standard: pick(of("standard")), special: pick(of("special")) };
}

export async function currentKeys(client: Client): Promise<CurrentKeys> {
  return currentKeysOf((await client.query<{ ring: string; version: string; fingerprint: string }>(CURRENT_KEYS_SQL)).rows);
}

/**
 * Records the fingerprints of the versions this process holds that PostgreSQL does not know yet
 * and, for a ring with no current version at all (a new install), makes this process's newest
 * current. A version recorded already keeps its fingerprint: a process holding another key under
 * the same name is found out by the comparison, never believed.
 */
export async function registerRings(client: Client, rings: Rings): Promise<void> {
  const held = allVersions(rings);
  await client.query(
    `INSERT INTO "SubjectKeyVersion" (version, ring, fingerprint) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (version) DO NOTHING`,
    [held.map((k) => k.version), held.map((k) => k.ring), held.map((k) => k.fingerprint)],
  );
  for (const ring of [rings.standard, rings.special]) {
    const first = ring.versions[0]!;
    await client.query(
      `UPDATE "SubjectKeyVersion" SET "currentSince" = now() AT TIME ZONE 'UTC'
        WHERE version = $1 AND fingerprint = $2 AND "retiredAt" IS NULL
          AND NOT EXISTS (SELECT 1 FROM "SubjectKeyVersion" WHERE ring = $3 AND "currentSince" IS NOT NULL AND "retiredAt" IS NULL)`,
      [first.version, first.fingerprint, ring.ring],
    );
  }
}
