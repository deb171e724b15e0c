/**
 * `npm run audit:verify`: checks both sealed chains (call log, audit events) end to end and names
 * the first segment that no longer matches. `--seal` seals the hours past their grace first.
 * `--heads <file>` also holds the database to signed chain heads an auditor downloaded earlier
 * (/api/audit/heads) and kept outside Kule: a rewrite of every row and every segment in the
 * database is caught, since the new chain no longer ends in the signed hashes. `--public-key
 * <pem>` checks the signatures against a key the auditor pinned rather than the one in the file.
 * Exit 0 when intact, 1 when anything fails.
 */
import fs from "node:fs";
import pg from "pg";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { verifyChains } from "../server/audit/seal/verify.ts";
import { sealAll } from "../server/audit/seal/seal.ts";
import { checkHeads, type SignedHead } from "../server/audit/seal/heads.ts";

const option = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** The auditor's file: the signed heads and the public key they were downloaded with. */
function heldHeads(file: string): { heads: SignedHead[]; publicKey: string } {
  const doc = JSON.parse(fs.readFileSync(file, "utf8")) as { kuleSealHeads?: number; heads?: SignedHead[]; publicKey?: string };
  if (doc.kuleSealHeads !== 1 || !Array.isArray(doc.heads)) throw new Error(`${file} is not a file of signed heads from /api/audit/heads.`);
  const pinned = option("--public-key");
  return { heads: doc.heads, publicKey: pinned ? fs.readFileSync(pinned, "utf8") : doc.publicKey! };
}

async function main() {
  const headsFile = option("--heads");
  const held = headsFile ? heldHeads(headsFile) : null;
  const database = await resolveDatabaseUrl();
  const pool = new pg.Pool({ connectionString: database.url, max: 2, options: "-c TimeZone=UTC" });
  try {
    if (process.argv.includes("--seal")) for (const s of await sealAll(pool)) console.log(`sealed ${s.stream}: ${s.segments} new segment(s), ${s.rows} rows`);
    const r = await verifyChains(pool);
    for (const s of r.streams) console.log(`${s.stream.padEnd(12)} ${String(s.segments).padStart(6)} segments  ${String(s.rows).padStart(10)} rows  sealed through ${s.sealedThrough ?? "—"}`);
    console.log(`${r.rows} rows in ${r.ms} ms (${r.rowsPerSecond.toLocaleString("en")} rows/s); ${r.heads.checked} signed heads in the database hold`);
    if (r.firstBad) {
      const b = r.firstBad;
      console.error(`✗ first bad segment: ${b.stream} ${b.start} – ${b.end}: ${b.reason} (sealed ${b.sealedRows} rows, now ${b.actualRows})`);
      process.exitCode = 1;
    }
    if (r.heads.problem) {
      console.error(`✗ ${r.heads.problem}`);
      process.exitCode = 1;
    }
    if (held) {
      const outside = await checkHeads(pool, held.heads, held.publicKey);
      if (outside.firstBad) {
        console.error(`✗ the head you hold for ${outside.firstBad.head.stream} through ${outside.firstBad.head.through}: ${outside.firstBad.reason}`);
        process.exitCode = 1;
      } else console.log(`✓ all ${outside.checked} signed heads you hold match the database`);
    }
    if (!process.exitCode) console.log("✓ both chains intact");
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
