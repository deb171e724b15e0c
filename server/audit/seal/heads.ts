import type pg from "pg";
import { HOUR_MS } from "./digest.ts";
import type { StreamName } from "./streams.ts";
import { headSignatureValid, signHead, type ChainHead, type SealKey } from "./signing-key.ts";

export interface SignedHead extends ChainHead {
  keyId: string;
  signature: string;
}

/**
 * After a seal run, signs the stream's head (the last segment) unless it is signed already; in
 * the seal's transaction, so a head is never signed for segments that did not commit.
 */
export async function signHeadIfNew(client: pg.PoolClient, stream: StreamName, key: SealKey) {
  const { rows } = await client.query<{ start: Date; hash: string; n: string }>(
    `SELECT start AT TIME ZONE 'UTC' AS start, hash, (SELECT count(*) FROM "SealSegment" WHERE stream = $1) AS n FROM "SealSegment" WHERE stream = $1 ORDER BY start DESC LIMIT 1`,
    [stream],
  );
  const last = rows[0];
  if (!last) return;
  const head: ChainHead = { stream, through: new Date(last.start.getTime() + HOUR_MS).toISOString(), segments: Number(last.n), hash: last.hash };
  await client.query(
    `INSERT INTO "SealHead" (stream, through, segments, hash, "keyId", signature) VALUES ($1, $2::timestamptz AT TIME ZONE 'UTC', $3, $4, $5, $6) ON CONFLICT (stream, through) DO NOTHING`,
    [stream, head.through, head.segments, head.hash, key.keyId, signHead(key, head)],
  );
}

/** Every signed head in the database, oldest first: what auditors download and keep. */
export async function signedHeads(db: pg.Pool | pg.PoolClient): Promise<SignedHead[]> {
  const { rows } = await db.query<{ stream: string; through: Date; segments: number; hash: string; keyId: string; signature: string }>(
    `SELECT stream, through AT TIME ZONE 'UTC' AS through, segments, hash, "keyId", signature FROM "SealHead" ORDER BY through, stream`,
  );
  return rows.map((r) => ({ ...r, through: r.through.toISOString() }));
}

/**
 * Checks signed heads (an auditor's copies, or the database's own) against the chains in the
 * database: each signature must hold under `publicKeyPem`, and the chain must still end, at that
 * hour, in the signed hash with the signed number of segments. The first head that fails, and why.
 */
export async function checkHeads(db: pg.Pool | pg.PoolClient, heads: SignedHead[], publicKeyPem: string): Promise<{ checked: number; firstBad: { head: SignedHead; reason: string } | null }> {
  for (const [i, head] of heads.entries()) {
    if (!headSignatureValid(publicKeyPem, head, head.signature)) return { checked: i, firstBad: { head, reason: "its signature does not hold under the seal key" } };
    const lastHour = new Date(Date.parse(head.through) - HOUR_MS).toISOString();
    const { rows } = await db.query<{ hash: string; n: string }>(
      `SELECT hash, (SELECT count(*) FROM "SealSegment" WHERE stream = $1 AND start <= $2::timestamptz AT TIME ZONE 'UTC') AS n FROM "SealSegment" WHERE stream = $1 AND start = $2::timestamptz AT TIME ZONE 'UTC'`,
      [head.stream, lastHour],
    );
    const seg = rows[0];
    if (!seg) return { checked: i, firstBad: { head, reason: `the ${head.stream} chain has no segment for the hour the head seals (${lastHour})` } };
    if (seg.hash !== head.hash || Number(seg.n) !== head.segments) {
      return { checked: i, firstBad: { head, reason: `the ${head.stream} chain through ${head.through} no longer ends in the signed hash: its seals were rewritten` } };
    }
  }
  return { checked: heads.length, firstBad: null };
}
