import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl";
import { MESSAGES } from "@/server/shared/i18n/messages";
import { canaryPair, describeEvent, formatSteps, parseSteps, rollbackTargetOf, type VersionLike } from "./rollout-view.ts";

const t = createTranslator({ locale: "en", messages: MESSAGES.en, namespace: "endpoints.view" });
const tr = createTranslator({ locale: "tr", messages: MESSAGES.tr, namespace: "endpoints.view" });

const v = (id: string, weight: number, state: string, lastFullAt: string | null, createdAt = "2026-12-01T00:00:00Z"): VersionLike => ({ id, weight, state, lastFullAt, createdAt, modelVersion: { version: id } });

describe("rollout view", () => {
  it("puts the last full holder on the stable side of the slider", () => {
    const p = canaryPair([v("1.1", 20, "ready", null), v("1.0", 80, "ready", "2026-12-01T10:00:00Z")]);
    expect(p?.stable.id).toBe("1.0");
    expect(p?.canary.id).toBe("1.1");
    expect(canaryPair([v("1.0", 100, "ready", "x"), v("0.9", 0, "retired", "2026-01-01")])).toBeNull();
    expect(canaryPair([v("a", 50, "ready", null), v("b", 25, "ready", null), v("c", 25, "ready", null)])).toBeNull();
  });

  it("names the rollback target, or why there is none", () => {
    expect(rollbackTargetOf([v("1.0", 80, "ready", "2026-12-01T10:00:00Z"), v("1.1", 20, "ready", null)], t).target?.id).toBe("1.0");
    const promoted = [v("1.0", 0, "retired", "2026-12-01T10:00:00Z"), v("1.1", 100, "ready", "2026-12-01T11:00:00Z")];
    expect(rollbackTargetOf(promoted, t)).toMatchObject({ target: { id: "1.0" }, blocked: "1.0 is retired: deploy it again to go back." });
    expect(rollbackTargetOf([v("1.0", 100, "ready", "2026-12-01T10:00:00Z")], t).blocked).toBe("No earlier version held all traffic.");
  });

  it("reads plan steps as weight:hold with units, and says what is wrong", () => {
    expect(parseSteps("5:10m, 20:600, 50:1h, 100", t)).toEqual({ steps: [{ weight: 5, holdSeconds: 600 }, { weight: 20, holdSeconds: 600 }, { weight: 50, holdSeconds: 3600 }, { weight: 100, holdSeconds: 1 }] });
    expect(parseSteps("5:ten", t)).toEqual({ error: '"5:ten" is not weight:hold (e.g. 20:10m)' });
    expect(parseSteps(" ", t)).toMatchObject({ error: expect.stringContaining("at least one step") });
    expect(formatSteps([{ weight: 5, holdSeconds: 600 }, { weight: 100, holdSeconds: 1 }], t)).toBe("5% for 10 min → 100%");
    expect(formatSteps([{ weight: 5, holdSeconds: 600 }, { weight: 100, holdSeconds: 1 }], tr)).toBe("10 dk boyunca %5 → 100%");
  });

  it("explains an automatic rollback with the metric, its value and the limit", () => {
    const d = describeEvent({ action: "rollout.auto.rollback", by: "Kule (automatic)", automatic: true, after: { to: "1.1", decision: { kind: "rollback", breach: { metric: "error_rate", value: 0.052, threshold: 0.011, against: "slo" } } } }, t);
    expect(d).toEqual({ title: "Kule rolled 1.1 back", detail: "error rate 5.20% over the SLO limit 1.10%", tone: "danger" });
    const lat = describeEvent({ action: "rollout.auto.rollback", by: "k", automatic: true, after: { to: "2", decision: { kind: "rollback", breach: { metric: "p95_latency_ms", value: 512.4, threshold: 300, against: "stable" } } } }, t);
    expect(lat.detail).toBe("p95 latency 512 ms over the stable version's 300 ms");
    expect(describeEvent({ action: "endpoint.weights.set", by: "x", automatic: false, after: [{ version: "1.0", weight: 80 }, { version: "1.1", weight: 20 }] }, t).title).toBe("Split set to 1.0 80% / 1.1 20%");
    expect(describeEvent({ action: "rollout.pause", by: "x", automatic: false, after: {} }, t).title).toBe("Canary paused");
  });
});
