import "server-only";
import { db } from "../db/client.ts";
import { auth } from "../auth/next-auth.ts";
import { loadActor, type Context } from "./context.ts";
import { appDrivers } from "../cluster/drivers.ts";
import { appPrometheus } from "../metrics/app-client.ts";

/** Context for a request arriving through Next: the session's user, loaded fresh. */
export async function createRequestContext(headers: Headers): Promise<Context> {
  const session = await auth();
  const client = db();
  const ip = headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? headers.get("x-real-ip") ?? null;
  return { db: client, actor: await loadActor(client, session?.user?.id), ip, drivers: appDrivers(), prometheus: appPrometheus() };
}
