/**
 * The FinOps Foundation's FOCUS 1.2 cost-and-usage dataset, as its specification states it: each
 * column's requirement level, data type, whether it may be null and the values it allows, and the
 * rules between columns that Kule's export can break. Written from the spec, not from the export
 * (server/finops/focus-export.ts), so the validator below checks one against the other.
 */

export type FocusType = "Decimal" | "DateTime" | "String" | "JSON";
export type Requirement = "Mandatory" | "Conditional" | "Recommended";

export interface FocusColumn {
  requirement: Requirement;
  type: FocusType;
  nullable: boolean;
  /** The spec's allowed values, where it closes the list. */
  values?: readonly string[];
}

const col = (requirement: Requirement, type: FocusType, nullable: boolean, values?: readonly string[]): FocusColumn => ({ requirement, type, nullable, values });

/** FOCUS 1.2's service categories (ServiceCategory's allowed values). */
export const SERVICE_CATEGORIES = [
  "AI and Machine Learning", "Analytics", "Business Applications", "Compute", "Databases", "Developer Tools", "Multicloud", "Identity", "Integration",
  "Internet of Things", "Management and Governance", "Media", "Migration", "Mobile", "Networking", "Security", "Storage", "Web", "Other",
] as const;

/** The columns of FOCUS 1.2 Kule may write (the spec has more: commitment discounts, capacity reservations, pricing currencies). */
export const FOCUS_COLUMNS: Record<string, FocusColumn> = {
  BilledCost: col("Mandatory", "Decimal", false),
  BillingAccountId: col("Mandatory", "String", false),
  BillingAccountName: col("Mandatory", "String", true),
  BillingAccountType: col("Conditional", "String", false),
  BillingCurrency: col("Mandatory", "String", false),
  BillingPeriodEnd: col("Mandatory", "DateTime", false),
  BillingPeriodStart: col("Mandatory", "DateTime", false),
  ChargeCategory: col("Mandatory", "String", false, ["Usage", "Purchase", "Tax", "Credit", "Adjustment"]),
  ChargeClass: col("Mandatory", "String", true, ["Correction"]),
  ChargeDescription: col("Mandatory", "String", true),
  ChargeFrequency: col("Recommended", "String", false, ["One-Time", "Recurring", "Usage-Based"]),
  ChargePeriodEnd: col("Mandatory", "DateTime", false),
  ChargePeriodStart: col("Mandatory", "DateTime", false),
  ConsumedQuantity: col("Conditional", "Decimal", true),
  ConsumedUnit: col("Conditional", "String", true),
  ContractedCost: col("Mandatory", "Decimal", false),
  ContractedUnitPrice: col("Conditional", "Decimal", true),
  EffectiveCost: col("Mandatory", "Decimal", false),
  InvoiceIssuerName: col("Mandatory", "String", false),
  ListCost: col("Mandatory", "Decimal", false),
  ListUnitPrice: col("Conditional", "Decimal", true),
  PricingCategory: col("Conditional", "String", true, ["Standard", "Dynamic", "Committed", "Other"]),
  PricingQuantity: col("Mandatory", "Decimal", true),
  PricingUnit: col("Mandatory", "String", true),
  ProviderName: col("Mandatory", "String", false),
  PublisherName: col("Mandatory", "String", false),
  RegionId: col("Conditional", "String", true),
  RegionName: col("Conditional", "String", true),
  ResourceId: col("Conditional", "String", true),
  ResourceName: col("Conditional", "String", true),
  ResourceType: col("Conditional", "String", true),
  ServiceCategory: col("Mandatory", "String", false, SERVICE_CATEGORIES),
  ServiceName: col("Mandatory", "String", false),
  ServiceSubcategory: col("Recommended", "String", false, ["AI Platforms", "Bots", "Generative AI", "Machine Learning", "Natural Language Processing", "Other (AI and Machine Learning)"]),
  SkuId: col("Conditional", "String", true),
  SubAccountId: col("Conditional", "String", true),
  SubAccountName: col("Conditional", "String", true),
  Tags: col("Conditional", "JSON", true),
};

export const MANDATORY_COLUMNS = Object.keys(FOCUS_COLUMNS).filter((c) => FOCUS_COLUMNS[c]!.requirement === "Mandatory");

// The spec's formats: a decimal without exponent, a UTC ISO 8601 date-time, an ISO 4217 code, a
// column name in Pascal case or a custom one prefixed x_.
const DECIMAL = /^-?\d+(\.\d+)?$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const CURRENCY = /^[A-Z]{3}$/;
const NAME = /^([A-Z][A-Za-z0-9]*|x_[A-Za-z0-9_]+)$/;

export type FocusValue = string | number | Record<string, unknown> | null;

/**
 * What is wrong with a FOCUS dataset: its header (every Mandatory column, names as the spec
 * spells them) and each row against its columns' rules and the rules between columns. Values as
 * read from CSV (strings, "" for null) or JSONL (numbers, objects, null). Empty when it conforms.
 */
export function focusViolations(header: string[], rows: Record<string, FocusValue>[]): string[] {
  const out: string[] = [];
  for (const c of MANDATORY_COLUMNS) if (!header.includes(c)) out.push(`missing Mandatory column ${c}`);
  for (const h of header) if (!NAME.test(h)) out.push(`column ${h}: not a FOCUS name (Pascal case) nor a custom one (x_ prefix)`);
  rows.forEach((row, i) => {
    const bad = (m: string) => out.push(`row ${i + 1}: ${m}`);
    const get = (c: string) => (row[c] === "" || row[c] === undefined ? null : row[c]!);
    for (const [name, rule] of Object.entries(FOCUS_COLUMNS)) {
      if (!header.includes(name)) continue;
      const v = get(name);
      if (v === null) {
        if (!rule.nullable) bad(`${name} is null`);
        continue;
      }
      if (rule.type === "Decimal" && !(typeof v === "number" ? Number.isFinite(v) : typeof v === "string" && DECIMAL.test(v))) bad(`${name} ${JSON.stringify(v)} is not a decimal`);
      if (rule.type === "DateTime" && !(typeof v === "string" && DATETIME.test(v) && !Number.isNaN(Date.parse(v)))) bad(`${name} ${JSON.stringify(v)} is not a UTC ISO 8601 date-time`);
      if (rule.type === "String" && typeof v !== "string") bad(`${name} is not a string`);
      if (rule.type === "JSON" && !isJsonObject(v)) bad(`${name} is not a JSON object`);
      if (rule.values && typeof v === "string" && !rule.values.includes(v)) bad(`${name} "${v}" is not one of the spec's values`);
    }
    const time = (c: string) => Date.parse(String(get(c)));
    if (time("ChargePeriodStart") >= time("ChargePeriodEnd")) bad("ChargePeriodStart is not before ChargePeriodEnd");
    if (time("BillingPeriodStart") >= time("BillingPeriodEnd")) bad("BillingPeriodStart is not before BillingPeriodEnd");
    if (time("ChargePeriodStart") < time("BillingPeriodStart") || time("ChargePeriodEnd") > time("BillingPeriodEnd")) bad("the charge period is outside its billing period");
    if (!CURRENCY.test(String(get("BillingCurrency")))) bad(`BillingCurrency ${JSON.stringify(get("BillingCurrency"))} is not an ISO 4217 code`);
    if (get("PricingQuantity") !== null && get("PricingUnit") === null) bad("PricingUnit is null where PricingQuantity is not");
    if (get("ConsumedQuantity") !== null && get("ConsumedUnit") === null) bad("ConsumedUnit is null where ConsumedQuantity is not");
    if (get("ChargeCategory") === "Usage" && get("ChargeClass") !== "Correction" && get("ConsumedQuantity") === null) bad("a Usage charge without ConsumedQuantity");
    if (get("ChargeClass") === null && Number(get("BilledCost")) < 0 && get("ChargeCategory") === "Usage") bad("a negative Usage charge that is not a correction");
  });
  return out;
}

function isJsonObject(v: FocusValue): boolean {
  if (typeof v === "object") return v !== null && !Array.isArray(v);
  try {
    const parsed: unknown = JSON.parse(v as string);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
