import type { PrismaClient } from "../db/generated/client.ts";
import type { ActorContext } from "../auth/actor.ts";
import type { EndpointRefInput } from "./schemas.ts";

export interface ServedShare {
  endpointVersionId: string;
  requests: number;
  /** Percent of the window's requests, 0–100. */
  share: number;
}

/**
 * The split the gateways actually served over the last `seconds`, from the call log (every
 * answered request has a row; its "endpointVersionId" column names the serving version).
 * Shown beside the slider so the operator sees a change take effect.
 */
export async function servedSplitOf(db: PrismaClient, endpointId: string, seconds = 60): Promise<{ windowSeconds: number; total: number; versions: ServedShare[] }> {
  const rows = await db.$queryRaw<{ v: string; n: bigint }[]>`
    SELECT "endpointVersionId" AS v, count(*) AS n FROM "CallLog"
     WHERE "endpointId" = ${endpointId} AND "startedAt" > now() - make_interval(secs => ${seconds}) AND "endpointVersionId" IS NOT NULL
     GROUP BY 1`;
  const total = rows.reduce((s, r) => s + Number(r.n), 0);
  return {
    windowSeconds: seconds,
    total,
    versions: rows.map((r) => ({ endpointVersionId: r.v, requests: Number(r.n), share: total ? (Number(r.n) / total) * 100 : 0 })).sort((a, b) => b.requests - a.requests),
  };
}

export function servedSplit({ db }: ActorContext, { endpointId }: EndpointRefInput) {
  return servedSplitOf(db, endpointId);
}
