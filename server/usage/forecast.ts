import { Prisma } from "../db/generated/client.ts";

const D = Prisma.Decimal;
const HOUR = 3_600_000;
/** The run rate is what the last week cost an hour: a weekday/weekend cycle is in it whole. */
export const RUN_RATE_HOURS = 7 * 24;

export interface MonthForecast {
  /** What the month will have cost at its end, at the recent run rate. */
  forecast: Prisma.Decimal;
  /** The run rate: charges an hour over the recent window. */
  perHour: Prisma.Decimal;
  /** When the spend reaches the budget at that rate: null without a budget, or if it will not this month; `now` if already spent. */
  budgetReachedAt: Date | null;
}

/**
 * The month's end from its spend so far and the recent run rate (`recentCharged` over the last
 * `recentHours`, at most a week and never before the tenant's first call), and when that rate
 * reaches the budget. A month that began a day ago is forecast from the week before it too: a
 * run rate, not the month's own average, so a quiet first day does not read as a quiet month.
 */
export function monthForecast(input: { spent: Prisma.Decimal; recentCharged: Prisma.Decimal; recentHours: number; budget: Prisma.Decimal | null; now: Date }): MonthForecast {
  const { spent, budget, now } = input;
  const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const perHour = input.recentHours > 0 ? input.recentCharged.div(input.recentHours) : new D(0);
  const left = (monthEnd - now.getTime()) / HOUR;
  const forecast = spent.add(perHour.mul(left));
  let budgetReachedAt: Date | null = null;
  if (budget) {
    if (spent.gte(budget)) budgetReachedAt = now;
    else if (perHour.gt(0)) {
      const at = now.getTime() + budget.sub(spent).div(perHour).mul(HOUR).toNumber();
      if (at < monthEnd) budgetReachedAt = new Date(at);
    }
  }
  return { forecast, perHour, budgetReachedAt };
}
