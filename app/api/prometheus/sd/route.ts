import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { discoverReplicas } from "@/server/metrics/prometheus/discovery";
import { bearerMatches, storedSdToken } from "@/server/metrics/prometheus/sd-token";

export const dynamic = "force-dynamic";

/**
 * GET /api/prometheus/sd: Prometheus' http_sd list of every replica Kule knows, whatever its
 * driver, with Kule's labels. Prometheus is no user: it presents the discovery token instead of
 * a session (see server/metrics/prometheus/sd-token.ts).
 */
export async function GET(req: Request) {
  const token = env.KULE_PROMETHEUS_SD_TOKEN ?? storedSdToken(env.KULE_DATA_DIR);
  if (!bearerMatches(req.headers.get("authorization"), token)) {
    return Response.json({ error: "Service discovery needs the bearer token Kule's Prometheus is given (KULE_PROMETHEUS_SD_TOKEN)." }, { status: 401, headers: { "www-authenticate": "Bearer" } });
  }
  return Response.json(await discoverReplicas(db()));
}
