/**
 * The Content-Disposition header of a download (RFC 6266): `filename` for old clients in plain
 * ASCII, `filename*` (RFC 8187) with the name in UTF-8. Names carry tenant slugs and ids, so the
 * header must hold whatever a name holds: a quote, `;`, a backslash or a line break cannot end the
 * parameter or the header, and a path separator cannot put the file anywhere but the downloads folder.
 */
export function attachment(name: string): string {
  const safe = fileNameOf(name);
  const ascii = safe
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // Ş → S, ö → o: the letters without their marks
    .replace(/ı/g, "i") // Turkish dotless ı has no mark to drop
    .replace(/[^\x20-\x7e]|[%;"\\]/g, "_"); // what is still not ASCII, and what an old parser may split on or decode
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(safe)}`;
}

/** A file name a download may take: no control characters, no path, none of Windows' reserved characters, not hidden. */
function fileNameOf(name: string): string {
  const clean = name
    .toWellFormed() // a lone surrogate would make the UTF-8 encoding throw
    .normalize("NFKC") // full-width ＂ and ／ become " and /, and go below
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")
    .replace(/[/\\<>:"|?*]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim();
  // A bounded length, cut between whole characters (never between the halves of one).
  return Array.from(clean).slice(0, 120).join("") || "download";
}

/** RFC 8187's attr-char set: what encodeURIComponent leaves but the header may not hold is encoded too. */
const encodeRfc8187 = (s: string) => encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
