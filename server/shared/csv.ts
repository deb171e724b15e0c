/**
 * CSV formula injection (OWASP "CSV Injection"): Excel, LibreOffice and Google Sheets run a cell
 * that starts with one of these as a formula, so a name or id an outsider chose could reach an
 * auditor's spreadsheet as `=HYPERLINK(…)`. Such a text cell is written with a single quote before
 * it, which spreadsheets show as text. A value that starts with a quote gets one as well, so the
 * rule reverses without doubt: a reader drops one leading quote from any text cell that has one
 * (scripts/verify-export.mjs does, to rebuild the sealed rows).
 */
export const FORMULA_LEADS = ["=", "+", "-", "@", "\t", "\r", "'"] as const;

const LEADS = new Set<string>(FORMULA_LEADS);

/** A text value as a CSV cell shows it: neutralised, never a formula (numbers go through csvLine's `{ number }`). */
export function csvText(value: string): string {
  return LEADS.has(value.charAt(0)) ? `'${value}` : value;
}

/**
 * The same rule in SQL, for files PostgreSQL writes with COPY: `expr` (text, may be NULL, which
 * stays NULL) neutralised. Characters by code, so no quoting of a tab or a quote can go wrong.
 * `expr` is read more than once: a column or a cheap expression.
 */
export function csvTextSql(expr: string): string {
  const leads = FORMULA_LEADS.map((c) => `chr(${c.charCodeAt(0)})`).join(", ");
  return `CASE WHEN left(${expr}, 1) IN (${leads}) THEN chr(39) || ${expr} ELSE ${expr} END`;
}

/** A cell of csvLine: text (neutralised), or a figure the server computed, written as it is. */
export type CsvCell = string | { number: string | number | bigint };

/** One RFC 4180 record (no line end): each cell neutralised if text, quoted where it holds a quote, comma or line break. */
export function csvLine(cells: readonly CsvCell[]): string {
  return cells
    .map((c) => (typeof c === "string" ? csvText(c) : String(c.number)))
    .map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v))
    .join(",");
}
