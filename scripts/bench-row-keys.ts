/**
 * The per-call cost of keeping the call log's personal data at rest protected (server/gateway/
 * row-keys.ts): one row's client IP encrypted (AES-256-GCM, fresh nonce) and indexed (HMAC-SHA256),
 * and its `user` hashed (HMAC-SHA256), on the gateway's request loop. Compared with building the
 * same row without it. `npx tsx scripts/bench-row-keys.ts [calls]`
 */
import { randomBytes } from "node:crypto";
import { keyVersion } from "../server/call-log/keys/keyring.ts";
import { protectRow } from "../server/gateway/row-keys.ts";
import type { CallLogRow } from "../server/gateway/call-log.ts";

const n = Number(process.argv[2] ?? 200_000);
const k = (ring: "standard" | "special", v: string) => keyVersion(ring, v, randomBytes(32).toString("base64"));
const keys = { standard: k("standard", "v1"), special: k("special", "s1") };
const row = (i: number): CallLogRow => ({ requestId: `3f0c9a52-7c1e-4a8e-9d1b-${String(i).padStart(12, "0")}`, tenantId: "t", apiKeyId: "k", endpointId: "e", endpointVersionId: "v", replica: "r", region: "tr-ist", clientIp: `10.${i % 250}.${(i >> 8) % 250}.${i % 200}`, startedAt: 0, endedAt: 0, ttftMs: 1, status: 200, errorClass: null, promptTokens: 1, completionTokens: 1 });

function run(label: string, f: (i: number) => unknown) {
  for (let i = 0; i < 20_000; i++) f(i); // warm up the JIT
  const t = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < n; i++) sink += f(i) ? 1 : 0;
  const us = Number(process.hrtime.bigint() - t) / 1000 / n;
  console.log(`${label.padEnd(44)} ${us.toFixed(2)} µs/call (${n} calls${sink ? "" : "!"})`);
  return us;
}

const base = run("row only", (i) => JSON.stringify(row(i)));
const withIp = run("row + IP encrypted and indexed", (i) => JSON.stringify(protectRow(row(i), null, keys, "standard")));
const full = run("row + IP + user hashed", (i) => JSON.stringify(protectRow(row(i), "ayse@example.com.tr", keys, "standard")));
console.log(`protection adds ${(withIp - base).toFixed(2)} µs (IP only) to ${(full - base).toFixed(2)} µs (IP and user) a call`);
