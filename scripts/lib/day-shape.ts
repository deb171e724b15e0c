/**
 * The demo's traffic rhythm, in Istanbul time (UTC+3 all year): quiet at night, peaks at 11:00
 * and 15:00, weekends lighter. The one owner of the shape: the load generator follows it live,
 * and the seeded history (prisma/seed/history.ts) is generated from the same numbers in SQL.
 */
export const ISTANBUL_UTC_OFFSET_HOURS = 3;

/** Relative load at an Istanbul hour of day (0..24, fractional allowed), peak ≈ 1. */
export function hourLoad(hour: number): number {
  return Math.max(0.08, Math.exp(-((hour - 11) ** 2) / 8) + 0.8 * Math.exp(-((hour - 15) ** 2) / 6));
}

/** Relative load on an Istanbul day of week (0 = Sunday … 6 = Saturday). */
export function weekdayLoad(day: number): number {
  return day === 0 ? 0.35 : day === 6 ? 0.45 : 1;
}

/** The 24 hourly weights (index = Istanbul hour), for SQL. */
export const HOURLY_LOAD: number[] = Array.from({ length: 24 }, (_, h) => Number(hourLoad(h + 0.5).toFixed(4)));
/** The 7 daily weights (index = Istanbul day of week, 0 = Sunday), for SQL. */
export const WEEKDAY_LOAD: number[] = Array.from({ length: 7 }, (_, d) => weekdayLoad(d));

/** The Istanbul hour of day (fractional) and day of week of an instant. */
export function istanbulClock(at: Date): { hour: number; weekday: number } {
  const local = new Date(at.getTime() + ISTANBUL_UTC_OFFSET_HOURS * 3_600_000);
  return { hour: local.getUTCHours() + local.getUTCMinutes() / 60, weekday: local.getUTCDay() };
}
