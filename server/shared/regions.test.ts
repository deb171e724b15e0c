import { describe, expect, it } from "vitest";
import { countryOf, inRegionRule, isCountryCode } from "./regions.ts";
import { regionAllowed } from "../gateway/routing.ts";

describe("an endpoint's region rule", () => {
  it("takes a region or a prefix, and no rule means anywhere", () => {
    expect(inRegionRule("tr-ist", "tr-")).toBe(true);
    expect(inRegionRule("tr-ist", "tr-ist")).toBe(true);
    expect(inRegionRule("tr-ank", "tr-ist")).toBe(false);
    expect(inRegionRule("eu-fra", "tr-")).toBe(false);
    expect(inRegionRule("eu-fra", null)).toBe(true);
  });

  it("is the gateway's first test: a replica outside it gets no call, whatever the tenant's safeguards", () => {
    const tenant = { kvkk: false, abroad: new Set(["de"]), specialAbroad: false };
    const e = (regionConstraint: string | null) => ({ regionConstraint, special: false });
    expect(regionAllowed({ region: "eu-fra", verified: true }, tenant, e(null))).toBe(true);
    expect(regionAllowed({ region: "eu-fra", verified: true }, tenant, e("tr-"))).toBe(false);
    expect(regionAllowed({ region: "tr-ist", verified: true }, tenant, e("tr-ank"))).toBe(false);
  });
});

describe("the country a region lies in (what a transfer safeguard names)", () => {
  it("reads a cloud's eu- city as its country: eu-fra is Germany, not 'eu'", () => {
    expect(countryOf("eu-fra")).toBe("de");
    expect(countryOf("eu-ams")).toBe("nl");
    expect(countryOf("de-fra")).toBe("de");
    expect(countryOf("us-east")).toBe("us");
    expect(countryOf("tr-ist")).toBe("tr");
  });

  it("knows no country for a group's label it cannot place, and no safeguard covers it", () => {
    expect(countryOf("eu-xyz")).toBeNull();
    expect(countryOf("ap-south")).toBeNull();
    const tenant = { kvkk: false, abroad: new Set(["eu", "ap"]), specialAbroad: false };
    expect(regionAllowed({ region: "eu-xyz", verified: true }, tenant, { regionConstraint: null, special: false })).toBe(false);
    expect(isCountryCode("eu")).toBe(false);
    expect(isCountryCode("de")).toBe(true);
  });

  it("keeps a special endpoint's calls in Turkey unless the tenant has an Art. 6(3) condition recorded, safeguard or not", () => {
    const plain = { kvkk: false, abroad: new Set(["de"]), specialAbroad: false };
    const special = { regionConstraint: null, special: true };
    expect(regionAllowed({ region: "eu-fra", verified: true }, plain, special)).toBe(false);
    expect(regionAllowed({ region: "tr-ist", verified: true }, plain, special)).toBe(true);
    expect(regionAllowed({ region: "eu-fra", verified: true }, { ...plain, specialAbroad: true }, special)).toBe(true);
  });
});
