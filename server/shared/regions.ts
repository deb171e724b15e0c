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
