import { env } from "../env.ts";
import { storedToken } from "../metrics/prometheus/sd-token.ts";

/** The file Kule's Alertmanager reads the webhook's bearer token from (alertmanager.yml's credentials_file). */
export const ALERT_WEBHOOK_TOKEN_FILE = "alert-webhook-token";

/**
 * The bearer token Alertmanager presents to Kule's webhook (a forged alert would page people and
 * fill the history): KULE_ALERT_WEBHOOK_TOKEN when set, else one generated once under KULE_DATA_DIR.
 */
export const alertWebhookToken = () => env.KULE_ALERT_WEBHOOK_TOKEN ?? storedToken(env.KULE_DATA_DIR, ALERT_WEBHOOK_TOKEN_FILE);
