import { describe, expect, it } from "vitest";
import { focusViolations, MANDATORY_COLUMNS, type FocusValue } from "./focus-spec.ts";
import { FOCUS_HEADER } from "./focus-export.ts";

/** A conforming Usage row, as the CSV reads it. */
const row = (): Record<string, FocusValue> => ({
  BilledCost: "0.096000000000",
  BillingAccountId: "t1",
  BillingAccountName: "Anadolu Bank",
  BillingAccountType: "Tenant",
  BillingCurrency: "TRY",
  BillingPeriodEnd: "2026-12-01T00:00:00Z",
  BillingPeriodStart: "2026-11-01T00:00:00Z",
  ChargeCategory: "Usage",
  ChargeClass: "",
  ChargeDescription: "3 requests",
  ChargeFrequency: "Usage-Based",
  ChargePeriodEnd: "2026-11-04T00:00:00Z",
  ChargePeriodStart: "2026-11-03T00:00:00Z",
  ConsumedQuantity: "3610",
  ConsumedUnit: "Tokens",
  ContractedCost: "0.096",
  EffectiveCost: "0.096",
  InvoiceIssuerName: "Kule",
  ListCost: "0.096",
  PricingQuantity: "3610",
  PricingUnit: "Tokens",
  ProviderName: "Kule",
  PublisherName: "Kule",
  ServiceCategory: "AI and Machine Learning",
  ServiceName: "Chat",
  ServiceSubcategory: "Generative AI",
  Tags: '{"kule.tenant":"anadolu-bank"}',
  x_Requests: "3",
});
const check = (change: Record<string, FocusValue>, header = Object.keys(row())) => focusViolations(header, [{ ...row(), ...change }]);

describe("the FOCUS 1.2 column rules", () => {
  it("accept a conforming row, and Kule's export header holds every Mandatory column", () => {
    expect(check({})).toEqual([]);
    expect(FOCUS_HEADER).toEqual(expect.arrayContaining(MANDATORY_COLUMNS));
    expect(MANDATORY_COLUMNS).toHaveLength(21);
  });

  it("name a missing Mandatory column and a custom column without the x_ prefix", () => {
    const header = Object.keys(row()).filter((c) => c !== "EffectiveCost");
    expect(check({ kuleRequests: "3" }, [...header, "kuleRequests"])).toEqual(["missing Mandatory column EffectiveCost", "column kuleRequests: not a FOCUS name (Pascal case) nor a custom one (x_ prefix)"]);
  });

  it("refuse nulls, wrong types and values outside the spec's lists", () => {
    expect(check({ BilledCost: "" })).toEqual(["row 1: BilledCost is null"]);
    expect(check({ ListCost: "1e-3" })).toEqual(['row 1: ListCost "1e-3" is not a decimal']);
    expect(check({ ChargePeriodStart: "2026-11-03 00:00:00" })[0]).toBe('row 1: ChargePeriodStart "2026-11-03 00:00:00" is not a UTC ISO 8601 date-time');
    expect(check({ ChargeCategory: "Inference" })).toEqual(['row 1: ChargeCategory "Inference" is not one of the spec\'s values']);
    expect(check({ ServiceCategory: "AI" })).toEqual(['row 1: ServiceCategory "AI" is not one of the spec\'s values']);
    expect(check({ Tags: "[1,2]" })).toEqual(["row 1: Tags is not a JSON object"]);
    expect(check({ BillingCurrency: "tl" })).toEqual(['row 1: BillingCurrency "tl" is not an ISO 4217 code']);
  });

  it("hold the rules between columns: periods in order and inside the billing period, units beside quantities", () => {
    expect(check({ ChargePeriodEnd: "2026-11-03T00:00:00Z" })).toEqual(["row 1: ChargePeriodStart is not before ChargePeriodEnd"]);
    expect(check({ ChargePeriodStart: "2026-11-30T00:00:00Z", ChargePeriodEnd: "2026-12-02T00:00:00Z" })).toEqual(["row 1: the charge period is outside its billing period"]);
    expect(check({ PricingUnit: "" })).toEqual(["row 1: PricingUnit is null where PricingQuantity is not"]);
    expect(check({ ConsumedQuantity: "", ConsumedUnit: "" })).toEqual(["row 1: a Usage charge without ConsumedQuantity"]);
  });

  it("read JSONL's numbers and objects as the same types", () => {
    expect(focusViolations(Object.keys(row()), [{ ...row(), BilledCost: 0.096, ConsumedQuantity: 3610, Tags: { "kule.tenant": "anadolu-bank" } }])).toEqual([]);
    expect(focusViolations(Object.keys(row()), [{ ...row(), BilledCost: "cheap" }])).toEqual(['row 1: BilledCost "cheap" is not a decimal']);
  });
});
