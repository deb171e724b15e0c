import { describe, expect, it } from "vitest";
import { pickLocale } from "./locales.ts";
import { formatDate, formatDateTime, formatMoney, formatNumber } from "./format.ts";

describe("pickLocale", () => {
  it("prefers the user's setting, then the cookie, then the browser's languages by weight", () => {
    expect(pickLocale({ user: "tr", cookie: "en", acceptLanguage: "en" })).toBe("tr");
    expect(pickLocale({ user: null, cookie: "en", acceptLanguage: "tr-TR" })).toBe("en");
    expect(pickLocale({ acceptLanguage: "de-DE,tr;q=0.9,en;q=0.8" })).toBe("tr");
    expect(pickLocale({ acceptLanguage: "en;q=0.5,tr-TR;q=0.9" })).toBe("tr");
  });

  it("falls back to English for unknown or refused languages and ignores a forged value", () => {
    expect(pickLocale({ acceptLanguage: "de,fr;q=0.8" })).toBe("en");
    expect(pickLocale({ acceptLanguage: "tr;q=0" })).toBe("en");
    expect(pickLocale({ user: "xx", cookie: "<script>" })).toBe("en");
    expect(pickLocale({})).toBe("en");
  });
});

describe("formats", () => {
  it("writes money the way each language does", () => {
    expect(formatMoney("tr", 1234.56)).toBe("1.234,56 ₺");
    expect(formatMoney("en", 1234.56)).toBe("TRY 1,234.56");
  });

  it("writes dates and numbers in the language's own way, in UTC", () => {
    expect(formatDate("tr", "2026-12-03T10:00:00Z")).toBe("3 Ara 2026");
    expect(formatDate("en", "2026-12-03T10:00:00Z")).toBe("3 Dec 2026");
    expect(formatDateTime("tr", "2026-12-03T23:30:00Z")).toBe("3 Ara 2026 23:30 UTC");
    expect(formatDateTime("en", null)).toBe("—");
    expect(formatNumber("tr", 1234567.891)).toBe("1.234.567,89");
    expect(formatNumber("en", 1234567.891)).toBe("1,234,567.89");
  });
});
