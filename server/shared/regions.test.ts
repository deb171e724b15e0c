import { describe, expect, it } from "vitest";
import { inRegionRule } from "./regions.ts";
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
    const tenant = { kvkk: false, abroad: new Set(["eu"]) };
    expect(regionAllowed({ region: "eu-fra", verified: true }, tenant, null)).toBe(true);
    expect(regionAllowed({ region: "eu-fra", verified: true }, tenant, "tr-")).toBe(false);
    expect(regionAllowed({ region: "tr-ist", verified: true }, tenant, "tr-ank")).toBe(false);
  });
});
