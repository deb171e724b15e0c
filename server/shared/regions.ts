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

/** The country a region lies in, as its label begins ("de" for de-fra): what transfer safeguards name. */
export function countryOf(region: string): string {
  return region.split("-")[0]!;
}

/** The same as SQL over a region column. */
export const countryOfSql = (column: string) => `split_part(${column}, '-', 1)`;

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
