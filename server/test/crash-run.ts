import { Pool as HttpPool } from "undici";
import pg from "pg";
import { waitForHttp } from "../../scripts/lib/proc.ts";
import type { GatewayProcess } from "./gateway-process.ts";

export interface CrashRunResult {
  /** Calls answered 200 to the client, each with its request id. */
  answered: number;
  /** Requests that got no answer (sent to the gateway as it died, or while it was down). */
  unanswered: number;
  /** Answered calls without a call-log row, and rows beyond the first of any answered call. */
  lost: number;
  doubled: number;
}

/**
 * SIGKILL a gateway under steady load and start it again on the same spool directory: every call
 * answered to a client must then have exactly one call-log row. Requests go out evenly at `rate`
 * for `seconds`; the kill lands at half-time, the restart right after.
 */
export async function crashRun(opts: {
  databaseUrl: string;
  start: () => GatewayProcess;
  headers: Record<string, string>;
  body: string;
  rate?: number;
  seconds?: number;
  /** How long to wait for the restarted gateway to store what it found. */
  settleMs?: number;
}): Promise<CrashRunResult> {
  const rate = opts.rate ?? 1000;
  const seconds = opts.seconds ?? 2;
  let gateway = opts.start();
  await gateway.first;
  await waitForHttp(`${gateway.base}/healthz`, 30_000);
  const http = new HttpPool(gateway.base, { connections: 128, pipelining: 1 });
  const answered: string[] = [];
  let unanswered = 0;
  const inflight: Promise<void>[] = [];
  const send = () =>
    http
      .request({ path: "/v1/chat/completions", method: "POST", headers: { "content-type": "application/json", ...opts.headers }, body: opts.body })
      .then(async (r) => {
        await r.body.text();
        const id = r.headers["x-kule-request-id"];
        if (r.statusCode === 200 && typeof id === "string") answered.push(id);
        else unanswered++;
      })
      .catch(() => void unanswered++);

  // Warm: connections open, code compiled, before the clock starts.
  for (let i = 0; i < 5; i++) await Promise.all(Array.from({ length: 50 }, send));
  answered.length = 0;
  unanswered = 0;
  const total = rate * seconds;
  const t0 = performance.now();
  let killed = false;
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (!killed && i >= total / 2) {
      gateway.child.kill("SIGKILL");
      killed = true;
    }
    inflight.push(send());
  }
  await Promise.all(inflight);
  await http.close();
  await gateway.stopped();

  // Started again on the same spool: it finds the dead one's journal and replays it.
  gateway = opts.start();
  await gateway.first;
  const db = new pg.Pool({ connectionString: opts.databaseUrl, max: 1 });
  try {
    const counts = async () => {
      const rows = await db.query<{ id: string; n: number }>(`SELECT "requestId" AS id, count(*)::int AS n FROM "CallLog" WHERE "requestId" = ANY($1) GROUP BY 1`, [answered]);
      return new Map(rows.rows.map((r) => [r.id, r.n]));
    };
    const until = Date.now() + (opts.settleMs ?? 20_000);
    let found = await counts();
    while (found.size < answered.length && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      found = await counts();
    }
    return {
      answered: answered.length,
      unanswered,
      lost: answered.filter((id) => !found.has(id)).length,
      doubled: [...found.values()].reduce((s, n) => s + n - 1, 0),
    };
  } finally {
    await db.end();
    gateway.child.kill("SIGTERM");
    await gateway.stopped();
  }
}
