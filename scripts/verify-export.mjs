#!/usr/bin/env node
/**
 * Re-checks a Kule call-log export without Kule: plain Node (≥ 20.12), no packages.
 *
 *   node scripts/verify-export.mjs <export.csv|export.jsonl> <manifest.json>
 *
 * 1. The file's SHA-256 and size match the manifest (the same as `sha256sum <file>`).
 * 2. Its row count matches.
 * 3. For a complete export (no filter but time: manifest.seal.complete), each sealed hour's
 *    digest is rebuilt from the rows — SHA-256 over the hour's PostgreSQL COPY text lines, each
 *    ending in "\n", ordered by startedAt then requestId byte-wise — and each segment's hash is
 *    recomputed from the previous one: SHA-256(prevHash \n "call_log" \n start \n rowCount \n digest).
 *    Kule writes exports in that order; rows are still sorted within each hour here, so only the
 *    hours need to come in order (one hour's rows are held at a time). A CSV text cell that starts
 *    with a quote had it added against formula injection: the quote is dropped first.
 * Exit 0 when everything matches; otherwise the first mismatch is printed and the exit is 1.
 */
import fs from "node:fs";
import { createHash } from "node:crypto";
import readline from "node:readline";

const [file, manifestPath] = process.argv.slice(2);
if (!file || !manifestPath) {
  console.error("usage: node scripts/verify-export.mjs <export file> <manifest.json>");
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
const fail = (msg) => {
  console.error(`✗ ${msg}`);
  process.exit(1);
};

const sha = createHash("sha256");
for await (const chunk of fs.createReadStream(file)) sha.update(chunk);
const digest = sha.digest("hex");
if (digest !== manifest.sha256) fail(`SHA-256 ${digest} ≠ manifest ${manifest.sha256}`);
if (fs.statSync(file).size !== manifest.bytes) fail(`size ${fs.statSync(file).size} ≠ manifest ${manifest.bytes}`);
console.log(`✓ SHA-256 ${digest}`);

/** One CSV record per line (Kule's values never hold line breaks); unquoted empty = NULL, "" = empty text. */
function parseCsvLine(line) {
  const out = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (line[q + 1] === '"') {
          v += line.slice(i, q + 1);
          i = q + 2;
        } else {
          v += line.slice(i, q);
          i = q + 1;
          break;
        }
      }
      out.push(v);
      i++; // the comma
    } else {
      const c = line.indexOf(",", i);
      const end = c < 0 ? line.length : c;
      const v = line.slice(i, end);
      out.push(v === "" ? null : v);
      i = end + 1;
    }
  }
  return out;
}

/**
 * A CSV text cell as stored: Kule writes a quote before any value that starts with = + - @, a tab,
 * a carriage return or a quote, so a spreadsheet never runs it as a formula; one leading quote is dropped.
 */
const unneutralise = (v) => (v?.startsWith("'") ? v.slice(1) : v);

const SEALED_ORDER = ["startedAt", "requestId", "tenantId", "apiKeyId", "endpointId", "versionId", "replica", "region", "clientIp", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens", "userHash"];
const TIMES = new Set(["startedAt", "endedAt"]);
// PostgreSQL prints timestamp(3) as "2026-11-03 00:00:02.3": trailing zeros of the fraction dropped.
const pgTime = (iso) => {
  const frac = iso.slice(20, 23).replace(/0+$/, "");
  return iso.slice(0, 19).replace("T", " ") + (frac ? `.${frac}` : "");
};
const copyText = (v) => (v === null ? "\\N" : String(v).replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c]));

const segments = new Map((manifest.seal?.segments ?? []).map((s) => [s.start, s]));
const EMPTY = { n: 0, digest: createHash("sha256").digest("hex") };
/** Each sealed hour's rows as [startedAt ISO, requestId, COPY text line], hashed when the hour ends. */
const digests = new Map();
let open = null;
const closeHour = () => {
  if (!open) return;
  const byTimeThenId = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : Buffer.compare(Buffer.from(a[1]), Buffer.from(b[1])));
  const h = createHash("sha256");
  for (const [, , text] of open.lines.sort(byTimeThenId)) h.update(`${text}\n`);
  digests.set(open.hour, { n: open.lines.length, digest: h.digest("hex") });
  open = null;
};
let rows = 0;
const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
let header = null;
for await (let line of rl) {
  if (manifest.format === "csv") {
    if (header === null) {
      // The manifest names the columns in their order; the file's own header row is written in
      // its reader's language (Turkish or English), so it is skipped, not read.
      header = manifest.columns ?? parseCsvLine(line.replace(/^\uFEFF/, ""));
      continue;
    }
  }
  if (!line) continue;
  rows++;
  if (!manifest.seal?.complete || !segments.size) continue;
  let rec;
  if (manifest.format === "csv") {
    const vals = parseCsvLine(line).map(unneutralise);
    rec = Object.fromEntries(header.map((h, i) => [h, vals[i] ?? null]));
  } else rec = JSON.parse(line);
  const hour = `${rec.startedAt.slice(0, 13)}:00:00.000Z`;
  if (!segments.has(hour)) continue;
  if (open?.hour !== hour) {
    closeHour();
    if (digests.has(hour)) fail(`rows of ${hour} come again after a later hour: the export is not in time order`);
    open = { hour, lines: [] };
  }
  const text = SEALED_ORDER.map((k) => copyText(rec[k] === null || rec[k] === undefined ? null : TIMES.has(k) ? pgTime(rec[k]) : rec[k])).join("\t");
  open.lines.push([rec.startedAt, rec.requestId, text]);
}
closeHour();
if (rows !== manifest.rows) fail(`${rows} rows ≠ manifest ${manifest.rows}`);
console.log(`✓ ${rows} rows`);

if (manifest.seal?.complete && segments.size) {
  let prev = null;
  for (const seg of manifest.seal.segments) {
    const s = digests.get(seg.start) ?? EMPTY;
    if (s.n !== seg.rowCount || s.digest !== seg.digest) fail(`segment ${seg.start}: the rows hash to ${s.digest} (${s.n} rows), the seal says ${seg.digest} (${seg.rowCount} rows)`);
    const link = createHash("sha256").update(`${seg.prevHash}\ncall_log\n${seg.start}\n${seg.sealedRowCount}\n${seg.sealedDigest}`).digest("hex");
    if (link !== seg.hash || (prev && seg.prevHash !== prev)) fail(`segment ${seg.start}: the chain does not link`);
    prev = seg.hash;
  }
  console.log(`✓ ${segments.size} sealed hours rebuilt from the rows; chain links through ${prev}`);
} else console.log("· filtered export: rows are a subset of their hours, so hour digests cannot be rebuilt (checksum and count only)");
