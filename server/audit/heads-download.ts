import type { ActorContext } from "../auth/actor.ts";
import { pgPool } from "../db/pg-pool.ts";
import { recordAudit } from "./record.ts";
import { attachment } from "../http/attachment.ts";
import { signedHeads } from "./seal/heads.ts";
import { sealKey } from "./seal/signing-key.ts";

/**
 * The signed chain heads and the public key, as one file an auditor downloads and keeps outside
 * Kule. Later, `npm run audit:verify -- --heads <file>` holds the database to them. The download
 * is audited.
 */
export async function downloadHeads(ctx: ActorContext): Promise<Response> {
  const key = sealKey();
  const heads = await signedHeads(pgPool(ctx.db));
  await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "audit.heads.download", targetType: "seal", after: { heads: heads.length, keyId: key.keyId } });
  const doc = { kuleSealHeads: 1, keyId: key.keyId, publicKey: key.publicKeyPem, downloadedAt: new Date().toISOString(), heads, recheck: "npm run audit:verify -- --heads <this file> [--public-key <key.pem>]" };
  const day = new Date().toISOString().slice(0, 10);
  return new Response(JSON.stringify(doc, null, 2), { headers: { "content-type": "application/json", "content-disposition": attachment(`kule-seal-heads-${day}.json`) } });
}
