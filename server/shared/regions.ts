/**
 * Regions inside Turkey are named `tr-…` (tr-ist, tr-ank): the rule KVKK residency, the gateway's
 * routing, the residency map and the UI's KVKK badges all read from here.
 */
export const TURKEY_REGION_PREFIX = "tr-";

export function isInTurkey(region: string): boolean {
  return region.startsWith(TURKEY_REGION_PREFIX);
}

/** The same rule as a SQL condition on a region column. */
export const inTurkeySql = (column: string) => `${column} LIKE '${TURKEY_REGION_PREFIX}%'`;

/**
 * Region labels that do not begin with their country: a cloud's `eu-…` names a city, and KVKK's
 * transfer rules (Art. 9) and safeguards name a country. The city's country, ISO 3166-1 alpha-2.
 */
export const REGION_COUNTRIES: Readonly<Record<string, string>> = {
  "eu-fra": "de",
  "eu-ber": "de",
  "eu-ams": "nl",
  "eu-par": "fr",
  "eu-dub": "ie",
  "eu-mil": "it",
  "eu-mad": "es",
  "eu-sto": "se",
  "eu-war": "pl",
  "eu-vie": "at",
  "eu-zrh": "ch",
  "eu-lon": "gb",
};

/** Prefixes that are a group of countries, not one: a label under them not in the table above is in an unknown country. */
const NOT_A_COUNTRY = new Set(["eu", "ap", "me", "af", "sa", "na", "latam", "global"]);

/**
 * The country a region lies in (lower-case ISO 3166-1 alpha-2: "de" for de-fra and eu-fra), or null
 * when the label does not say (eu-xyz, an unknown city): a transfer there is covered by no safeguard.
 */
export function countryOf(region: string): string | null {
  const named = REGION_COUNTRIES[region];
  if (named) return named;
  const first = region.split("-")[0]!;
  return /^[a-z]{2}$/.test(first) && !NOT_A_COUNTRY.has(first) ? first : null;
}

/** The same as SQL over a region column (null where countryOf is null). */
export const countryOfSql = (column: string) =>
  `(CASE ${column} ${Object.entries(REGION_COUNTRIES)
    .map(([r, c]) => `WHEN '${r}' THEN '${c}'`)
    .join(" ")} ELSE (CASE WHEN split_part(${column}, '-', 1) ~ '^[a-z]{2}$' AND split_part(${column}, '-', 1) NOT IN (${[...NOT_A_COUNTRY].map((p) => `'${p}'`).join(", ")}) THEN split_part(${column}, '-', 1) END) END)`;

/** Whether a safeguard's destination is a country (not a group like eu): what safeguards may name. */
export const isCountryCode = (code: string) => /^[a-z]{2}$/.test(code) && !NOT_A_COUNTRY.has(code);

/**
 * An endpoint's region rule (a region or a prefix: `tr-`, `eu-fra`): its replicas lie in regions
 * that begin with it; none keeps them anywhere in the pool. Placement (where a replica may start,
 * by hand or by the autoscaler) and the gateway (which replicas a call may reach) both ask here.
 */
export function inRegionRule(region: string, rule: string | null): boolean {
  return !rule || region.startsWith(rule);
}

/** The same rule as a Prisma filter on a `region` column. */
export const regionRuleWhere = (rule: string | null) => (rule ? { region: { startsWith: rule } } : {});
