/**
 * How long a tenant's call log is kept: its own retention, else the platform's default; special
 * categories of personal data (KVKK Art. 6) no longer than the special ceiling; never shorter than
 * Law 5651's minimum for traffic logs, which wins over the ceiling. The destruction run, the
 * settings pages and the retention checks all read it from here.
 */
export interface RetentionLimits {
  defaultDays: number;
  minDays: number | null;
  specialMaxDays: number;
}

/** The longest a special-category tenant's or endpoint's calls are kept. */
export const specialCeilingDays = (l: RetentionLimits) => Math.max(l.specialMaxDays, l.minDays ?? 0);

export const effectiveRetentionDays = (own: number | null, special: boolean, l: RetentionLimits) =>
  Math.max(Math.min(own ?? l.defaultDays, special ? l.specialMaxDays : Infinity), l.minDays ?? 0);

export const limitsOf = (s: { defaultRetentionDays: number; trafficLogMinDays: number | null; specialRetentionMaxDays: number }): RetentionLimits => ({
  defaultDays: s.defaultRetentionDays,
  minDays: s.trafficLogMinDays,
  specialMaxDays: s.specialRetentionMaxDays,
});
