import { describe, expect, it } from "vitest";
import { alertmanagerConfig } from "./alertmanager-config.ts";
import { checkAlertmanagerConfig } from "./config-sync.ts";

const opts = { kuleWebhookUrl: "http://127.0.0.1:3000/api/alerts/webhook", kuleTokenFile: "/tmp/kule-token" };

/** Checked by Debian's amtool, as Kule checks every config before Alertmanager reloads it. */
describe("alertmanager.yml rendered from Kule's receivers", () => {
  it("routes every alert to Kule, then webhook, e-mail and Slack receivers by endpoint and severity; amtool accepts it", async () => {
    const text = alertmanagerConfig(
      [
        { name: "oncall", kind: "webhook", settings: { url: "https://hooks.example.com/kule" }, endpointSlugs: ["chat"], severities: ["page"] },
        { name: "ops-mail", kind: "email", settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "smtp.example.com:587", username: "kule", password: "s3cret", requireTls: true }, endpointSlugs: [], severities: ["ticket", "warning"] },
        { name: "team-slack", kind: "slack", settings: { url: "https://hooks.slack.com/services/T0/B0/x", channel: "#kule" }, endpointSlugs: ["chat", "embed.v2"], severities: [] },
      ],
      opts,
    );
    expect(await checkAlertmanagerConfig(text)).toBeNull();
    expect(text).toMatch(/routes:\n {4}- receiver: "kule"\n {6}continue: true/);
    expect(text).toContain('matchers: ["endpoint=~\\"chat\\"", "severity=~\\"page\\""]');
    expect(text).toContain('matchers: ["kule_endpoint=~\\"chat\\"", "severity=~\\"page\\""]'); // replica alerts of the endpoint too
    expect(text).toContain('matchers: ["endpoint=~\\"chat|embed\\\\\\\\.v2\\""]'); // a dot in a slug matches only a dot
    expect(text).toContain('credentials_file: "/tmp/kule-token"');
    // A receiver's URL passed Kule's outbound check when saved: Alertmanager must not follow a redirect past it.
    expect(text.match(/follow_redirects: false/g)).toHaveLength(2);
  });
  it("a receiver Alertmanager would refuse is reported with amtool's reason", async () => {
    const text = alertmanagerConfig([{ name: "bad-mail", kind: "email", settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "no-port-here" }, endpointSlugs: [], severities: [] }], opts);
    expect(await checkAlertmanagerConfig(text)).toMatch(/smarthost|address|port/i);
  });
});
