import type { Db } from "../db/client.ts";
import { pgPool } from "../db/pg-pool.ts";
import { sealAll } from "./seal/seal.ts";
import { destructionIfDue } from "../kvkk/destruction.ts";
import { failAbandonedExports } from "../call-log/export/jobs.ts";
import { verifyChains } from "./seal/verify.ts";
import { chainFinding, openFromFinding } from "../kvkk/breaches.ts";
import { rollUpTransfersNow } from "../kvkk/transfer-register.ts";
import { rekeyBatch } from "../kvkk/rekey.ts";

/** The chain is checked on its own once a day: a breach of integrity is found even when nobody clicks. */
const CHAIN_CHECK_EVERY_MS = 24 * 3_600_000;

const EVERY_MS = 5 * 60_000;

/**
 * The audit housekeeping loop: next months' call-log partitions, sealing the hours past their
 * grace period, and the destruction run when its cycle is due. Each step is idempotent and
 * locked in the database, so two app processes running it do no harm.
 */
export function startAuditHousekeeping(db: Db): () => void {
  const pool = pgPool(db);
  let running = false;
  let lastChainCheck = 0;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await pool.query("SELECT kule_call_log_ensure_partitions(3)");
      // Client IPs under older key versions move to the current one a batch at a time (recorded when any moved).
      await rekeyBatch(pool, { actor: null, batch: 5000 });
      await sealAll(pool);
      // The transfer register keeps up with the call log (and its detector runs) without anyone reading it.
      await rollUpTransfersNow(pool);
      const destroyed = await destructionIfDue(pool);
      if (destroyed?.rows) console.log(`[audit] destruction removed or anonymised ${destroyed.rows} call-log rows`);
      if (Date.now() - lastChainCheck >= CHAIN_CHECK_EVERY_MS) {
        lastChainCheck = Date.now();
        const finding = chainFinding((await verifyChains(pool)).firstBad);
        if (finding) await openFromFinding(pool, finding);
      }
    } catch (e) {
      console.error("[audit] housekeeping failed; retrying in 5 minutes", e);
    } finally {
      running = false;
    }
  };
  void failAbandonedExports(db).catch((e) => console.error("[audit]", e));
  void tick();
  const timer = setInterval(() => void tick(), EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
