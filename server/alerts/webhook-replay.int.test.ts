import { describe, expect, it } from "vitest";
import { testDb, uid } from "../test/harness.ts";
import { handleAlertWebhook } from "./webhook.ts";

const TOKEN = "replay-test-token-0123456789abcdef";

const delivery = (fingerprint: string, status: "firing" | "resolved", startsAt: string, endsAt = "0001-01-01T00:00:00Z") => ({
  version: "4",
  status,
  receiver: "kule",
  alerts: [{ status, labels: { alertname: "KuleSloBurnFast", endpoint: "chat", severity: "page" }, annotations: { summary: "burning" }, startsAt, endsAt, fingerprint }],
});
const post = (body: unknown, auth = `Bearer ${TOKEN}`) => handleAlertWebhook(testDb(), TOKEN, new Request("http://kule/api/alerts/webhook", { method: "POST", headers: { authorization: auth }, body: JSON.stringify(body) }));
const episodes = (fingerprint: string) => testDb().alert.findMany({ where: { fingerprint }, orderBy: { startsAt: "asc" }, select: { startsAt: true, status: true } });

/** A delivery captured once (a log, a proxy) and sent again, or one made up without the token. */
describe("replayed and forged alert deliveries", () => {
  it("a replayed 'resolved' of an earlier episode does not resolve the alert firing now", async () => {
    const fp = `fp-${uid()}`;
    await post(delivery(fp, "firing", "2026-12-07T08:00:00Z"));
    const oldResolved = delivery(fp, "resolved", "2026-12-07T08:00:00Z", "2026-12-07T08:20:00Z");
    await post(oldResolved);
    await post(delivery(fp, "firing", "2026-12-07T10:00:00Z"));
    expect((await post(oldResolved)).status).toBe(200);
    expect((await episodes(fp)).map((e) => e.status)).toEqual(["resolved", "firing"]);
  });

  it("a replayed 'firing' never reopens an episode that was resolved", async () => {
    const fp = `fp-${uid()}`;
    const firing = delivery(fp, "firing", "2026-12-07T09:00:00Z");
    await post(firing);
    await post(delivery(fp, "resolved", "2026-12-07T09:00:00Z", "2026-12-07T09:30:00Z"));
    await post(firing);
    expect((await episodes(fp)).map((e) => e.status)).toEqual(["resolved"]);
  });

  it("a delivery without the token, or with a near miss of it, stores nothing", async () => {
    const fp = `fp-${uid()}`;
    for (const auth of ["", `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}0`, `Basic ${TOKEN}`]) expect((await post(delivery(fp, "firing", "2026-12-07T11:00:00Z"), auth)).status).toBe(401);
    expect(await episodes(fp)).toEqual([]);
  });
});
