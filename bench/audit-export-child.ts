/**
 * The exporting process of the audit benchmark, on its own so its peak memory is the export's:
 * streams a CSV of the filter in argv to /dev/null (bytes hashed as for a real file) and prints
 * { rows, seconds, rows_per_second, peak_rss_mb } as one JSON line.
 */
import fs from "node:fs";
import pg from "pg";
import { streamExport } from "../server/call-log/export/stream.ts";

const [url, filterJson] = process.argv.slice(2);
const filter = JSON.parse(filterJson!, (k, v) => ((k === "from" || k === "to") && v ? new Date(v) : v));
const pool = new pg.Pool({ connectionString: url, max: 1, options: "-c TimeZone=UTC" });
const t0 = performance.now();
const r = await streamExport(pool, filter, "csv", fs.createWriteStream("/dev/null"));
const seconds = (performance.now() - t0) / 1000;
await pool.end();
console.log(JSON.stringify({ rows: r.rows, bytes: r.bytes, seconds, rows_per_second: Math.round(r.rows / seconds), peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }));
