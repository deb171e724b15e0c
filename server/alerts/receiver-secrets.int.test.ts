import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, makeActor, testDb, uid, useAlertmanager } from "../test/harness.ts";

/** An SMTP receiver's password goes into alertmanager.yml (Alertmanager needs it) and nowhere a person reads. */
describe("an alert receiver's SMTP password", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kule-am-secret-"));
  const configFile = path.join(dir, "alertmanager.yml");
  // Nothing listens on port 9 (discard): the reload fails, the file is still written.
  beforeAll(() => useAlertmanager({ url: "http://127.0.0.1:9", configFile, options: { kuleWebhookUrl: "http://127.0.0.1:3000/api/alerts/webhook", kuleTokenFile: "/dev/null" } }));
  afterAll(() => {
    useAlertmanager(null);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is written to a config file only its owner can read, and never answered, listed or audited", async () => {
    const admin = await makeActor("admin");
    const password = `pw-${uid()}-secret`;
    const name = `mail-${uid()}`;
    const saved = await caller(admin).alert.createReceiver({ kind: "email", name, settings: { to: "ops@example.com", from: "kule@example.com", smarthost: "smtp.example.com:587", username: "kule", password }, endpointSlugs: [], severities: [] });
    expect(fs.readFileSync(configFile, "utf8")).toContain(password);
    expect(fs.statSync(configFile).mode & 0o077).toBe(0);
    expect(JSON.stringify(saved)).not.toContain(password);
    expect(JSON.stringify(await caller(admin).alert.receivers())).not.toContain(password);
    const audit = await testDb().auditEvent.findMany({ where: { targetType: "alert-receiver" }, orderBy: { at: "desc" }, take: 5 });
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(password);
  });
});
