import { db } from "@/server/db/client";
import { alertWebhookToken } from "@/server/alerts/webhook-token";
import { handleAlertWebhook } from "@/server/alerts/webhook";

export const dynamic = "force-dynamic";

/**
 * POST /api/alerts/webhook: Alertmanager's webhook receiver (token KULE_ALERT_WEBHOOK_TOKEN).
 * Firing and resolved alerts land in the Alert table: the endpoint page, the overview and the SLA board show them.
 */
export function POST(req: Request) {
  return handleAlertWebhook(db(), alertWebhookToken(), req);
}
