/**
 * How fast an alert reaches Kule once Alertmanager has it: probes posted to Alertmanager's API (as
 * Prometheus posts an alert when it fires), each in a group of its own, until Kule's Alert table
 * has the row. Alertmanager's own notification latency for the webhook (send → Kule's answer,
 * which comes after the row is written) is the figure; post → row includes its group_wait.
 */
import type { PrismaClient } from "../server/db/generated/client.ts";
import { median } from "./lib.ts";

const PROBES = 5;

/** Alertmanager's own histogram of webhook notifications (seconds): sum and count. */
async function webhookLatency(amUrl: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${amUrl}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name}\\{integration="webhook"\\} (\\S+)`, "m").exec(text)?.[1] ?? 0);
  return { sum: read("alertmanager_notification_latency_seconds_sum"), count: read("alertmanager_notification_latency_seconds_count") };
}

export async function measureAlertDelivery(amUrl: string, db: PrismaClient) {
  const before = await webhookLatency(amUrl);
  const run = `${Date.now()}`;
  const postToRow = await Promise.all(
    Array.from({ length: PROBES }, async (_, i) => {
      const t0 = Date.now();
      const alert = { labels: { alertname: "KuleBenchProbe", severity: "ticket", tenant: `probe-${run}-${i}` }, annotations: { summary: "benchmark probe" }, startsAt: new Date(t0).toISOString() };
      const res = await fetch(`${amUrl}/api/v2/alerts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify([alert]) });
      if (!res.ok) throw new Error(`Alertmanager refused the probe: ${res.status}`);
      for (;;) {
        const row = await db.alert.findFirst({ where: { name: "KuleBenchProbe", labels: { path: ["tenant"], equals: alert.labels.tenant } }, select: { id: true } });
        if (row) return Date.now() - t0;
        if (Date.now() - t0 > 60_000) throw new Error("the probe alert never reached Kule's table");
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  // Alertmanager notifies after the histogram observes: wait for every probe's observation.
  let after = await webhookLatency(amUrl);
  for (let i = 0; i < 50 && after.count - before.count < PROBES; i++) {
    await new Promise((r) => setTimeout(r, 100));
    after = await webhookLatency(amUrl);
  }
  const sent = after.count - before.count;
  return {
    alert_fire_to_kule_ms: sent > 0 ? Math.round(((after.sum - before.sum) / sent) * 1000 * 10) / 10 : null,
    alert_post_to_kule_row_ms_p50: median(postToRow),
    alert_probes: PROBES,
    alert_webhook_notifications: sent,
  };
}
