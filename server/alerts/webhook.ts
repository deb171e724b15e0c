import type { PrismaClient } from "../db/generated/client.ts";
import { bearerMatches } from "../metrics/prometheus/sd-token.ts";
import { alertmanagerWebhookBody } from "./schemas.ts";
import { storeAlertmanagerWebhook } from "./store.ts";

/**
 * Alertmanager's webhook delivery, as POST /api/alerts/webhook answers it. Alertmanager is no user:
 * it presents the webhook token instead of a session. A malformed body is a 400 naming the field.
 */
export async function handleAlertWebhook(db: PrismaClient, token: string, req: Request): Promise<Response> {
  if (!bearerMatches(req.headers.get("authorization"), token)) {
    return Response.json({ error: "Alert deliveries need the bearer token Kule's Alertmanager is given (KULE_ALERT_WEBHOOK_TOKEN)." }, { status: 401, headers: { "www-authenticate": "Bearer" } });
  }
  let raw: unknown;
  try {
    raw = await req.json();
  } catch {
    return Response.json({ error: "The body is not JSON: send Alertmanager's webhook payload." }, { status: 400 });
  }
  const parsed = alertmanagerWebhookBody.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return Response.json({ error: `${issue.path.join(".") || "body"}: ${issue.message}` }, { status: 400 });
  }
  return Response.json(await storeAlertmanagerWebhook(db, parsed.data));
}
