import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { generateKeyPairSync, createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownDatabase } from "../../test/own-db.ts";
import { hoursAgo, insertCalls, makeTenantIn } from "../test/fixtures.ts";
import { sealAll, sealStream } from "./seal.ts";
import { verifyChains } from "./verify.ts";
import { checkHeads, signedHeads } from "./heads.ts";
import { headSignatureValid, keyIdOf, sealKey, type SealKey } from "./signing-key.ts";
import { STREAM_NAMES } from "./streams.ts";
import { childEnv } from "../../env.ts";

let own: Awaited<ReturnType<typeof ownDatabase>>;
const now = new Date();

/** Someone who can rewrite the whole database, but never had Kule's seal key. */
function forgersKey(): SealKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: keyIdOf(publicKey) };
}

beforeAll(async () => {
  own = await ownDatabase("kule_heads");
  const tenant = await makeTenantIn(own.pool);
  await insertCalls(own.pool, [6, 5, 4, 3].map((h, i) => ({ tenantId: tenant, startedAt: new Date(hoursAgo(h, now.getTime()).getTime() + i * 1000) })));
  await sealAll(own.pool, { now, graceMinutes: 60 });
}, 60_000);
afterAll(() => own?.close());

describe("chain heads signed outside the database", () => {
  it("signs each stream's head with the seal key, and the database's own heads hold", async () => {
    const heads = await signedHeads(own.pool);
    const callLog = heads.find((h) => h.stream === "call_log")!;
    // Sealed through the last hour past the grace period: the four hours with calls, and the empty one after.
    expect(callLog).toMatchObject({ keyId: sealKey().keyId, through: hoursAgo(1, now.getTime()).toISOString(), segments: 5 });
    expect(headSignatureValid(sealKey().publicKeyPem, callLog, callLog.signature)).toBe(true);
    expect(headSignatureValid(sealKey().publicKeyPem, { ...callLog, hash: "0".repeat(64) }, callLog.signature)).toBe(false);
    const r = await verifyChains(own.pool);
    expect(r.ok).toBe(true);
    expect(r.heads).toMatchObject({ checked: heads.length, problem: null });
  });

  it("catches a rewrite of every row and every seal in the database against the heads an auditor kept", async () => {
    // The auditor's copy, downloaded before the rewrite.
    const held = await signedHeads(own.pool);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kule-heads-")), "heads.json");
    fs.writeFileSync(file, JSON.stringify({ kuleSealHeads: 1, publicKey: sealKey().publicKeyPem, heads: held }));

    // The forger changes a row, then throws away every segment and head and seals again with a
    // key of its own: the database is consistent with itself again.
    await own.pool.query(`UPDATE "CallLog" SET "completionTokens" = 999 WHERE "startedAt" < $1 AT TIME ZONE 'UTC'`, [hoursAgo(5, now.getTime()).toISOString()]);
    await own.pool.query(`DELETE FROM "SealHead"; DELETE FROM "SealSegment"`);
    const forger = forgersKey();
    for (const stream of STREAM_NAMES) await sealStream(own.pool, stream, { now, graceMinutes: 60, key: forger });
    const inside = await verifyChains(own.pool);
    expect(inside.firstBad).toBeNull();

    // The heads the auditor holds no longer match, and their signatures still hold.
    const outside = await checkHeads(own.pool, held, sealKey().publicKeyPem);
    expect(outside.firstBad?.reason).toMatch(/no longer ends in the signed hash/);
    // Nor can the forger's heads pass for Kule's.
    const forged = await signedHeads(own.pool);
    expect((await checkHeads(own.pool, forged, sealKey().publicKeyPem)).firstBad?.reason).toMatch(/signature does not hold/);

    // And the command an auditor runs says so, and fails.
    const run = promisify(execFile)(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/audit-verify.ts", "--heads", file], { env: childEnv({ DATABASE_URL: own.url }) }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    const { code, out } = await run;
    expect(code).toBe(1);
    expect(out).toMatch(/the head you hold for call_log through .*: the call_log chain through .* no longer ends in the signed hash/);
  }, 60_000);
});
