import "server-only";
import { cookies } from "next/headers";
import { db } from "../db/client.ts";
import { auth } from "../auth/next-auth.ts";
import { loadActor, type Context } from "./context.ts";
import { appDrivers } from "../cluster/drivers.ts";
import { appPrometheus } from "../metrics/app-client.ts";
import { CLIENT_IP_HEADER } from "../http/client-ip-header.ts";
import { LOCALE_COOKIE, pickLocale } from "../shared/i18n/locales.ts";

/** Context for a request arriving through Next: the session's user, loaded fresh. */
export async function createRequestContext(headers: Headers): Promise<Context> {
  const session = await auth();
  const client = db();
  // Set by the app's server from the socket and the trusted proxies, never by the client.
  const ip = headers.get(CLIENT_IP_HEADER) || null;
  const actor = await loadActor(client, session?.user?.id);
  const cookie = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale = pickLocale({ user: actor?.locale, cookie, acceptLanguage: headers.get("accept-language") });
  return { db: client, actor, ip, drivers: appDrivers(), prometheus: appPrometheus(), locale };
}
