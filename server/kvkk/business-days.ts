/** Turkey keeps UTC+3 all year (no summer time since 2016): dates of the Authority's calendar. */
const TR_OFFSET_MS = 3 * 3_600_000;

/**
 * The end (23:59:59.999 Turkish time) of the `n`th business day after `from`, Saturdays and
 * Sundays skipped. Public holidays are not known to Kule: the operator must allow for them (a
 * standard contract's notice is due within 5 business days of signing, KVKK Art. 9(5)).
 */
export function businessDaysAfter(from: Date, n: number): Date {
  const local = new Date(from.getTime() + TR_OFFSET_MS);
  let day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  for (let left = n; left > 0; ) {
    day += 86_400_000;
    const dow = new Date(day).getUTCDay();
    if (dow !== 0 && dow !== 6) left--;
  }
  return new Date(day + 86_400_000 - 1 - TR_OFFSET_MS);
}
