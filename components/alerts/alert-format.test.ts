import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl";
import { MESSAGES } from "@/server/shared/i18n/messages";
import { durationText, rangeFor, windowsText } from "./alert-format";

const t = createTranslator({ locale: "en", messages: MESSAGES.en, namespace: "alerts.format" });
const tr = createTranslator({ locale: "tr", messages: MESSAGES.tr, namespace: "alerts.format" });

describe("alert wording", () => {
  const now = new Date("2026-12-04T15:00:00Z");
  const ago = (min: number) => new Date(now.getTime() - min * 60_000);
  it("says how long an alert has fired", () => {
    expect(durationText(ago(0.2), now, t)).toBe("under a minute");
    expect(durationText(ago(12), now, t)).toBe("12 min");
    expect(durationText(ago(185), now, t)).toBe("3 h 5 min");
    expect(durationText(ago(120), now, t)).toBe("2 h");
    expect(durationText(ago(185), now, tr)).toBe("3 sa 5 dk");
  });
  it("opens the charts over the smallest range that reaches back to the alert's start", () => {
    expect(rangeFor(ago(5), now)).toBe("15m");
    expect(rangeFor(ago(14), now)).toBe("1h"); // 15m would cut its start off the edge
    expect(rangeFor(ago(300), now)).toBe("6h");
    expect(rangeFor(ago(60 * 30), now)).toBe("7d");
  });
  it("names the burn-rate windows of an SLO alert only", () => {
    expect(windowsText({ longWindow: "1h", shortWindow: "5m" })).toBe("1h & 5m");
    expect(windowsText({ longWindow: null, shortWindow: null })).toBeNull();
  });
});
