/**
 * The exporting process of the FOCUS benchmark, on its own so its peak memory is the export's:
 * streams the dataset of the scope in argv to /dev/null in each format and prints
 * { rows, csv_seconds, jsonl_seconds, rows_per_second (the slower format's), peak_rss_mb } as one JSON line.
 */
import fs from "node:fs";
import pg from "pg";
import { streamFocus, type FocusScope } from "../server/finops/focus-export.ts";

const [url, scopeJson] = process.argv.slice(2);
const scope = JSON.parse(scopeJson!) as Omit<FocusScope, "format">;
const pool = new pg.Pool({ connectionString: url, max: 1 });
const seconds: Record<string, number> = {};
let rows = 0;
for (const format of ["csv", "jsonl"] as const) {
  const t0 = performance.now();
  rows = (await streamFocus(pool, { ...scope, format }, fs.createWriteStream("/dev/null"))).rows;
  seconds[format] = (performance.now() - t0) / 1000;
}
await pool.end();
const slower = Math.max(seconds.csv!, seconds.jsonl!);
console.log(JSON.stringify({ rows, csv_seconds: +seconds.csv!.toFixed(3), jsonl_seconds: +seconds.jsonl!.toFixed(3), rows_per_second: Math.round(rows / slower), peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }));
