import type pg from "pg";
import { expectedNow, loadAdjustments } from "../../audit/seal/adjustments.ts";
import type { CallLogFilter } from "../schemas.ts";
import { EXPORT_COLUMNS } from "./columns.ts";

export interface ManifestSegment {
  start: string;
  rowCount: number;
  /** The sealed digest carried through the destructions since: what the hour's rows hash to now. */
  digest: string;
  prevHash: string;
  hash: string;
  /** What the segment's hash covers: the hour as sealed, before any destruction. */
  sealedRowCount: number;
  sealedDigest: string;
}

/**
 * The sealed segments of the call log inside [from, to), so an outsider holding a complete export
 * (no filter but time, whole hours) can rebuild each hour's digest from the rows and the chain
 * from the hashes: scripts/verify-export.mjs.
 */
export async function sealSegmentsFor(pool: pg.Pool, from: Date | null, to: Date | null): Promise<{ segments: ManifestSegment[]; chainHead: string | null }> {
  const segs = await pool.query<{ start: Date; rowCount: number; digest: string; prevHash: string; hash: string }>(
    `SELECT start AT TIME ZONE 'UTC' AS start, "rowCount", digest, "prevHash", hash FROM "SealSegment"
      WHERE stream = 'call_log' AND ($1::timestamptz IS NULL OR start >= $1::timestamptz AT TIME ZONE 'UTC') AND ($2::timestamptz IS NULL OR start + interval '1 hour' <= $2::timestamptz AT TIME ZONE 'UTC')
      ORDER BY start`,
    [from, to],
  );
  const { byHour } = await loadAdjustments(pool);
  const head = await pool.query<{ hash: string }>(`SELECT hash FROM "SealSegment" WHERE stream = 'call_log' ORDER BY start DESC LIMIT 1`);
  return {
    chainHead: head.rows[0]?.hash ?? null,
    segments: segs.rows.map((s) => {
      const start = s.start.toISOString();
      const { count: rowCount, digest } = expectedNow({ count: s.rowCount, digest: s.digest }, byHour.get(s.start.getTime()) ?? []);
      return { start, rowCount, digest, prevHash: s.prevHash, hash: s.hash, sealedRowCount: s.rowCount, sealedDigest: s.digest };
    }),
  };
}

/** Whether the export holds every row of its time range: only then can hour digests be rebuilt from it. */
export function isComplete(filter: CallLogFilter, tenantScope: string | null): boolean {
  return !tenantScope && Object.entries(filter).every(([k, v]) => k === "from" || k === "to" || v == null);
}

export function buildManifest(opts: {
  id: string;
  format: string;
  filter: CallLogFilter;
  tenantScope: string | null;
  rows: number;
  bytes: number;
  sha256: string;
  requestedBy: { id: string; email: string };
  requestedAt: Date;
  /** Null for a tenant's export: the platform's seal says nothing about one tenant alone. */
  seal: Awaited<ReturnType<typeof sealSegmentsFor>> | null;
}) {
  return {
    kuleExport: 1,
    id: opts.id,
    format: opts.format,
    columns: EXPORT_COLUMNS,
    filter: opts.filter,
    tenantScope: opts.tenantScope,
    timeRange: { from: opts.filter.from ?? null, to: opts.filter.to ?? null },
    rows: opts.rows,
    bytes: opts.bytes,
    sha256: opts.sha256,
    requestedBy: opts.requestedBy,
    requestedAt: opts.requestedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    order: "startedAt, then requestId byte-wise",
    seal: opts.seal ? { complete: isComplete(opts.filter, opts.tenantScope), chainHead: opts.seal.chainHead, segments: opts.seal.segments } : null,
    recheck: `node scripts/verify-export.mjs <file> <manifest.json>   (or: sha256sum <file>  → ${opts.sha256})`,
  };
}
