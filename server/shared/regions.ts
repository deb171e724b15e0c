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
