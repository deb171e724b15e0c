import { procedure, router } from "../trpc/init.ts";
import { addPlanPriceInput, invoiceInput, rangeInput, setBudgetInput, setHardwareRateInput, setPlanLimitsInput, tenantUsageInput } from "../usage/schemas.ts";
import { endpointEconomics, invoiceCsv, tenantRanking, tenantUsage } from "../usage/queries.ts";
import { addPlanPrice, pricing, setHardwareRate, setPlanLimits } from "../usage/billing.ts";
import { setBudget } from "../usage/caps.ts";
import { costBreakdownInput, setOverheadInput } from "../finops/schemas.ts";
import { costBreakdown, currentOverheads, setOverhead } from "../finops/breakdown.ts";

export const usageRouter = router({
  tenant: procedure("usage:read").input(tenantUsageInput).query(({ ctx, input }) => tenantUsage(ctx, input)),
  invoice: procedure("usage:read").input(invoiceInput).query(({ ctx, input }) => invoiceCsv(ctx, input)),
  setBudget: procedure("budget:write").input(setBudgetInput).mutation(({ ctx, input }) => setBudget(ctx, input)),
  ranking: procedure("usage:admin").input(rangeInput).query(({ ctx, input }) => tenantRanking(ctx, input)),
  economics: procedure("usage:admin").input(rangeInput).query(({ ctx, input }) => endpointEconomics(ctx, input)),
  pricing: procedure("priceplan:read").query(({ ctx }) => pricing(ctx)),
  addPlanPrice: procedure("billing:write").input(addPlanPriceInput).mutation(({ ctx, input }) => addPlanPrice(ctx, input)),
  setPlanLimits: procedure("billing:write").input(setPlanLimitsInput).mutation(({ ctx, input }) => setPlanLimits(ctx, input)),
  costBreakdown: procedure("usage:read").input(costBreakdownInput).query(({ ctx, input }) => costBreakdown(ctx, input)),
  overheads: procedure("priceplan:read").query(({ ctx }) => currentOverheads(ctx)),
  setOverhead: procedure("billing:write").input(setOverheadInput).mutation(({ ctx, input }) => setOverhead(ctx, input)),
  setHardwareRate: procedure("billing:write").input(setHardwareRateInput).mutation(({ ctx, input }) => setHardwareRate(ctx, input)),
});
