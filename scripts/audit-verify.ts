/**
 * `npm run audit:verify`: checks both sealed chains (call log, audit events) end to end and names
 * the first segment that no longer matches. `--seal` seals the hours past their grace first.
 * Exit 0 when intact, 1 when a segment fails.
 */
import pg from "pg";
import { resolveDatabaseUrl } from "../server/db/url.ts";
import { verifyChains } from "../server/audit/seal/verify.ts";
import { sealAll } from "../server/audit/seal/seal.ts";

async function main() {
  const database = await resolveDatabaseUrl();
  const pool = new pg.Pool({ connectionString: database.url, max: 2, options: "-c TimeZone=UTC" });
  try {
    if (process.argv.includes("--seal")) for (const s of await sealAll(pool)) console.log(`sealed ${s.stream}: ${s.segments} new segment(s), ${s.rows} rows`);
    const r = await verifyChains(pool);
    for (const s of r.streams) console.log(`${s.stream.padEnd(12)} ${String(s.segments).padStart(6)} segments  ${String(s.rows).padStart(10)} rows  sealed through ${s.sealedThrough ?? "—"}`);
    console.log(`${r.rows} rows in ${r.ms} ms (${r.rowsPerSecond.toLocaleString("en")} rows/s)`);
    if (r.firstBad) {
      const b = r.firstBad;
      console.error(`✗ first bad segment: ${b.stream} ${b.start} – ${b.end}: ${b.reason} (sealed ${b.sealedRows} rows, now ${b.actualRows})`);
      process.exitCode = 1;
    } else console.log("✓ both chains intact");
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
