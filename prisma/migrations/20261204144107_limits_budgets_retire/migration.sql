-- AlterEnum
ALTER TYPE "TenantStatus" ADD VALUE 'offboarded';

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "creditBlockedAt" TIMESTAMP(3),
ADD COLUMN     "creditLimit" DECIMAL(18,2),
ADD COLUMN     "offboardedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Model" ADD COLUMN     "retiredAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "ModelVersion" ADD COLUMN     "retiredAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Endpoint" ADD COLUMN     "retiredAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "PricePlan" ADD COLUMN     "rpmLimit" INTEGER,
ADD COLUMN     "tpmLimit" INTEGER;

-- CreateTable
CREATE TABLE "TenantMonthSpend" (
    "tenantId" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "spent" DECIMAL(24,8) NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TenantMonthSpend_pkey" PRIMARY KEY ("tenantId","month")
);

-- AddForeignKey
ALTER TABLE "TenantMonthSpend" ADD CONSTRAINT "TenantMonthSpend_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The price in force for a call: the latest dated price of the plan at or before the call's
-- start, the endpoint's own price before the plan-wide one. The one owner of this rule: the
-- hourly roll-up and the live month spend both read it.
CREATE OR REPLACE FUNCTION kule_price_at(plan_id text, endpoint_id text, at timestamp)
RETURNS TABLE ("inputPer1M" numeric, "outputPer1M" numeric, "perRequest" numeric) LANGUAGE sql STABLE AS $$
  SELECT p."inputPer1M", p."outputPer1M", p."perRequest" FROM "PlanPrice" p
   WHERE p."planId" = plan_id AND p."effectiveFrom" <= at AND (p."endpointId" IS NULL OR p."endpointId" = endpoint_id)
   ORDER BY (p."endpointId" IS NOT NULL) DESC, p."effectiveFrom" DESC LIMIT 1
$$;

-- What a call is charged: only answered inference (2xx, routed to an endpoint); token prices for
-- calls that carry tokens, the per-request price for those that carry none. Exact NUMERIC.
CREATE OR REPLACE FUNCTION kule_call_charge(status int, endpoint_id text, prompt_tokens int, completion_tokens int, input_per_1m numeric, output_per_1m numeric, per_request numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status BETWEEN 200 AND 299 AND endpoint_id IS NOT NULL THEN
    CASE WHEN prompt_tokens + completion_tokens > 0
      THEN prompt_tokens * coalesce(input_per_1m, 0) / 1000000 + completion_tokens * coalesce(output_per_1m, 0) / 1000000
      ELSE coalesce(per_request, 0) END
  ELSE 0 END
$$;

-- Each flush of call-log rows adds its charges to the tenants' month spend and, when that crosses
-- a hard-capped budget or the credit limit, blocks the tenant in the same transaction: the Tenant
-- update NOTIFYs the gateways, which refuse the tenant's calls within milliseconds of the rows
-- landing (not at the next roll-up). Tenants are upserted in id order so two gateways' flushes
-- never deadlock. Unblocking (a raised budget, a new month) is the app's: server/usage/caps.ts.
CREATE OR REPLACE FUNCTION kule_live_spend() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cur_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO "TenantMonthSpend" ("tenantId", month, spent, "updatedAt")
  SELECT n."tenantId", date_trunc('month', n."startedAt")::date,
         sum(kule_call_charge(n.status, n."endpointId", n."promptTokens", n."completionTokens", pp."inputPer1M", pp."outputPer1M", pp."perRequest")),
         now() AT TIME ZONE 'UTC'
    FROM new_rows n JOIN "Tenant" t ON t.id = n."tenantId"
    LEFT JOIN LATERAL kule_price_at(t."pricePlanId", n."endpointId", n."startedAt") pp ON true
   WHERE n.status BETWEEN 200 AND 299 AND n."endpointId" IS NOT NULL
   GROUP BY 1, 2
   ORDER BY 1, 2
  ON CONFLICT ("tenantId", month) DO UPDATE SET spent = "TenantMonthSpend".spent + excluded.spent, "updatedAt" = excluded."updatedAt";

  WITH blocked AS (
    UPDATE "Tenant" t SET "budgetBlockedAt" = now() AT TIME ZONE 'UTC'
      FROM "TenantMonthSpend" s
     WHERE s."tenantId" = t.id AND s.month = cur_month AND t.id IN (SELECT "tenantId" FROM new_rows)
       AND t."budgetHardCap" AND t."monthlyBudget" IS NOT NULL AND s.spent >= t."monthlyBudget" AND t."budgetBlockedAt" IS NULL
    RETURNING t.id, s.spent, t."monthlyBudget")
  INSERT INTO "AuditEvent" (action, "targetType", "targetId", "after")
  SELECT 'tenant.budget.blocked', 'tenant', id, jsonb_build_object('spent', round(spent, 2)::text, 'budget', "monthlyBudget"::text) FROM blocked;

  WITH blocked AS (
    UPDATE "Tenant" t SET "creditBlockedAt" = now() AT TIME ZONE 'UTC'
      FROM "TenantMonthSpend" s
     WHERE s."tenantId" = t.id AND s.month = cur_month AND t.id IN (SELECT "tenantId" FROM new_rows)
       AND t."creditLimit" IS NOT NULL AND s.spent >= t."creditLimit" AND t."creditBlockedAt" IS NULL
    RETURNING t.id, s.spent, t."creditLimit")
  INSERT INTO "AuditEvent" (action, "targetType", "targetId", "after")
  SELECT 'tenant.credit.blocked', 'tenant', id, jsonb_build_object('spent', round(spent, 2)::text, 'creditLimit', "creditLimit"::text) FROM blocked;
  RETURN NULL;
END
$$;

CREATE TRIGGER "CallLog_live_spend" AFTER INSERT ON "CallLog"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kule_live_spend();

-- The spend so far, from the call log already there.
INSERT INTO "TenantMonthSpend" ("tenantId", month, spent)
SELECT c."tenantId", date_trunc('month', c."startedAt")::date,
       sum(kule_call_charge(c.status, c."endpointId", c."promptTokens", c."completionTokens", pp."inputPer1M", pp."outputPer1M", pp."perRequest"))
  FROM "CallLog" c JOIN "Tenant" t ON t.id = c."tenantId"
  LEFT JOIN LATERAL kule_price_at(t."pricePlanId", c."endpointId", c."startedAt") pp ON true
 WHERE c.status BETWEEN 200 AND 299 AND c."endpointId" IS NOT NULL
 GROUP BY 1, 2;

-- A plan's default limits reach the gateways as soon as they change.
CREATE TRIGGER "PricePlan_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "PricePlan" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
