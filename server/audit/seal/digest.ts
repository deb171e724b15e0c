import { createHash } from "node:crypto";

/**
 * An hour's digest is SHA-256 over its rows' canonical COPY text lines (each ending in "\n"), in
 * the stream's fixed order (streams.ts). A plain hash of the whole hour: no forger keeps it by
 * crafting many rows, as one could an additive multiset hash (Wagner's generalized birthday), and
 * PostgreSQL's bytes are hashed as they arrive, without being split into rows.
 */
export interface HourDigest {
  count: number;
  digest: string;
}

/** The digest of an hour without rows: SHA-256 of nothing. */
export const EMPTY_DIGEST = createHash("sha256").digest("hex");
export const EMPTY_HOUR: HourDigest = { count: 0, digest: EMPTY_DIGEST };
export const GENESIS = "0".repeat(64);

/** The chain link: a segment's hash covers the previous segment's hash and its own rows. */
export function segmentHash(prevHash: string, stream: string, start: Date, rowCount: number, digest: string): string {
  return createHash("sha256").update(`${prevHash}\n${stream}\n${start.toISOString()}\n${rowCount}\n${digest}`).digest("hex");
}

export const HOUR_MS = 3_600_000;
export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
