import { createHash } from "node:crypto";
import type { HourDigest } from "./digest.ts";

/**
 * What a destruction did to one sealed call-log hour: the hour's rows hashed just before it
 * (which must be what the seal and earlier destructions say, or the destruction would launder a
 * forgery) and just after it.
 */
export interface Adjustment {
  start: string;
  beforeCount: number;
  beforeDigest: string;
  afterCount: number;
  afterDigest: string;
}

/** Stable text of the adjustments (jsonb reorders keys): its SHA-256 goes into the sealed audit event. */
export function adjustmentsSha256(adjustments: Adjustment[]): string {
  const text = adjustments.map((a) => `${a.start}|${a.beforeCount}|${a.beforeDigest}|${a.afterCount}|${a.afterDigest}`).join("\n");
  return createHash("sha256").update(text).digest("hex");
}

/**
 * What an hour's rows must hash to now: the sealed digest, carried through each destruction in
 * the order they ran. A destruction that found the hour other than expected carries nothing: its
 * `broken` names it, and the hour stays held to what it was before.
 */
export function expectedNow<A extends Adjustment>(sealed: HourDigest, adjustments: readonly A[]): HourDigest & { broken: A | null } {
  let now = sealed;
  for (const a of adjustments) {
    if (a.beforeCount !== now.count || a.beforeDigest !== now.digest) return { ...now, broken: a };
    now = { count: a.afterCount, digest: a.afterDigest };
  }
  return { ...now, broken: null };
}

/**
 * Whether a stored record's adjustments are of this scheme. Records written under the earlier
 * additive digest (before migration 20261203_seal_ordered_sha256 re-sealed every hour) carry
 * removed/added digests instead; they describe hours sealed under the old scheme and excuse nothing.
 */
export function isCurrentScheme(adjustments: unknown): adjustments is Adjustment[] {
  return Array.isArray(adjustments) && adjustments.every((a) => typeof a === "object" && a !== null && typeof (a as Adjustment).beforeDigest === "string" && typeof (a as Adjustment).afterDigest === "string");
}
