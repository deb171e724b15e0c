import { createHash, hash } from "node:crypto";

/** Eight 32-bit lanes of SHA-256 output. */
const LANES = 8;
const MOD = 2 ** 32;

/**
 * A multiset hash of rows: the lane-wise sum (mod 2^32) of each row's SHA-256. Order-free, so an
 * hour is hashed in one sequential scan, and removable: a destruction subtracts the digest of
 * what it removed, and the chain still checks. Sums in doubles stay exact below 2^53, so lanes
 * are folded back under 2^32 every million rows.
 */
export class Multiset {
  count = 0;
  private lanes = new Float64Array(LANES);
  private sinceFold = 0;

  addLine(line: Uint8Array) {
    const d = hash("sha256", line, "buffer");
    for (let i = 0; i < LANES; i++) this.lanes[i]! += d.readUInt32BE(i * 4);
    this.count++;
    if (++this.sinceFold >= 1_000_000) this.fold();
  }

  private fold() {
    for (let i = 0; i < LANES; i++) this.lanes[i] = this.lanes[i]! % MOD;
    this.sinceFold = 0;
  }

  hex(): string {
    this.fold();
    return Array.from(this.lanes, (v) => v.toString(16).padStart(8, "0")).join("");
  }
}

export const EMPTY_DIGEST = "0".repeat(64);
export const GENESIS = "0".repeat(64);

function lanesOf(hex: string): number[] {
  return Array.from({ length: LANES }, (_, i) => parseInt(hex.slice(i * 8, i * 8 + 8), 16));
}

/** a + b − c, lane-wise mod 2^32: a sealed digest, plus what was added, less what was removed. */
export function combine(a: string, plus: string, minus: string): string {
  const [x, y, z] = [lanesOf(a), lanesOf(plus), lanesOf(minus)];
  return x.map((v, i) => ((((v + y[i]! - z[i]!) % MOD) + MOD) % MOD).toString(16).padStart(8, "0")).join("");
}

/** The chain link: a segment's hash covers the previous segment's hash and its own rows. */
export function segmentHash(prevHash: string, stream: string, start: Date, rowCount: number, digest: string): string {
  return createHash("sha256").update(`${prevHash}\n${stream}\n${start.toISOString()}\n${rowCount}\n${digest}`).digest("hex");
}

export const HOUR_MS = 3_600_000;
export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
