import { createHash } from "node:crypto";

/** What a destruction took out of (and, anonymizing, put back into) one sealed call-log hour. */
export interface Adjustment {
  start: string;
  removedCount: number;
  removedDigest: string;
  addedCount: number;
  addedDigest: string;
}

/** Stable text of the adjustments (jsonb reorders keys): its SHA-256 goes into the sealed audit event. */
export function adjustmentsSha256(adjustments: Adjustment[]): string {
  const text = adjustments.map((a) => `${a.start}|${a.removedCount}|${a.removedDigest}|${a.addedCount}|${a.addedDigest}`).join("\n");
  return createHash("sha256").update(text).digest("hex");
}
