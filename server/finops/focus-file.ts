import { parse } from "csv-parse/sync";
import { focusViolations, type FocusValue } from "./focus-spec.ts";

/** A FOCUS file as its header and rows: CSV (RFC 4180, a BOM allowed) or JSONL (one object a line). */
export function readFocusFile(text: string, format: "csv" | "jsonl"): { header: string[]; rows: Record<string, FocusValue>[] } {
  if (format === "jsonl") {
    const rows = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, FocusValue>);
    return { header: rows[0] ? Object.keys(rows[0]) : [], rows };
  }
  const records = parse(text, { bom: true, relax_column_count: false }) as string[][];
  const [header = [], ...lines] = records;
  return { header, rows: lines.map((l) => Object.fromEntries(header.map((h, i) => [h, l[i] ?? ""]))) };
}

/** What is wrong with a FOCUS file (focusViolations); empty when it conforms. */
export const focusFileViolations = (text: string, format: "csv" | "jsonl") => {
  const { header, rows } = readFocusFile(text, format);
  return focusViolations(header, rows);
};
