/**
 * Checks a FOCUS 1.2 file against the spec's column rules (server/finops/focus-spec.ts): every
 * Mandatory column, each value's type, nulls and allowed values, and the periods' order.
 *   npx tsx scripts/validate-focus.ts kule-focus-anadolu-bank-2026-11.csv
 */
import fs from "node:fs";
import { focusFileViolations, readFocusFile } from "../server/finops/focus-file.ts";

const file = process.argv[2];
if (!file) {
  console.error("usage: npx tsx scripts/validate-focus.ts <file.csv|file.jsonl>");
  process.exit(2);
}
const format = file.endsWith(".jsonl") ? "jsonl" : "csv";
const text = fs.readFileSync(file, "utf8");
const problems = focusFileViolations(text, format);
const rows = readFocusFile(text, format).rows.length;
for (const p of problems.slice(0, 50)) console.log(`✗ ${p}`);
if (problems.length > 50) console.log(`… and ${problems.length - 50} more`);
console.log(problems.length ? `${file}: ${problems.length} problems in ${rows} rows` : `${file}: ${rows} rows conform to FOCUS 1.2`);
process.exit(problems.length ? 1 : 0);
