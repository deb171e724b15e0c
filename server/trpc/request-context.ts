import "server-only";
import { db } from "../db/client.ts";
import { auth } from "../auth/next-auth.ts";
import { loadActor, type Context } from "./context.ts";
import { appDrivers } from "../cluster/drivers.ts";
import { appPrometheus } from "../metrics/app-client.ts";
import { CLIENT_IP_HEADER } from "../http/client-ip-header.ts";

/** Context for a request arriving through Next: the session's user, loaded fresh. */
export async function createRequestContext(headers: Headers): Promise<Context> {
  const session = await auth();
  const client = db();
  // Set by the app's server from the socket and the trusted proxies, never by the client.
  const ip = headers.get(CLIENT_IP_HEADER) || null;
  return { db: client, actor: await loadActor(client, session?.user?.id), ip, drivers: appDrivers(), prometheus: appPrometheus() };
}
