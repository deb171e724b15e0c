-- CreateEnum
CREATE TYPE "HardwareKind" AS ENUM ('gpu', 'cpu');

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "budgetBlockedAt" TIMESTAMP(3),
ADD COLUMN     "budgetHardCap" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "monthlyBudget" DECIMAL(18,2);


-- CreateTable
CREATE TABLE "PlanPrice" (
    "id" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "endpointId" TEXT,
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "inputPer1M" DECIMAL(18,6) NOT NULL,
    "outputPer1M" DECIMAL(18,6) NOT NULL,
    "perRequest" DECIMAL(18,6) NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlanPrice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HardwareRate" (
    "id" TEXT NOT NULL,
    "kind" "HardwareKind" NOT NULL,
    "key" TEXT NOT NULL,
    "perHour" DECIMAL(18,6) NOT NULL,
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HardwareRate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "tenantId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "endpointVersionId" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "promptTokens" BIGINT NOT NULL,
    "completionTokens" BIGINT NOT NULL,
    "charged" DECIMAL(24,12) NOT NULL,
    "currency" TEXT NOT NULL,
    "latencySumMs" BIGINT NOT NULL,
    "ttftSumMs" BIGINT NOT NULL,
    "ttftCount" INTEGER NOT NULL,
    "latencyBuckets" INTEGER[],
    "ttftBuckets" INTEGER[],
    "rolledUpAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("hour","tenantId","apiKeyId","endpointId","endpointVersionId")
);

-- CreateTable
CREATE TABLE "UsageDirtyHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "markedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageDirtyHour_pkey" PRIMARY KEY ("hour")
);

-- CreateTable
CREATE TABLE "CostHour" (
    "hour" TIMESTAMP(3) NOT NULL,
    "subject" TEXT NOT NULL,
    "deviceHours" DECIMAL(18,6) NOT NULL,
    "cost" DECIMAL(20,8) NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CostHour_pkey" PRIMARY KEY ("hour","subject")
);

-- CreateIndex
CREATE INDEX "PlanPrice_planId_effectiveFrom_idx" ON "PlanPrice"("planId", "effectiveFrom");

-- CreateIndex
CREATE INDEX "HardwareRate_kind_key_effectiveFrom_idx" ON "HardwareRate"("kind", "key", "effectiveFrom");

-- CreateIndex
CREATE INDEX "UsageHour_tenantId_hour_idx" ON "UsageHour"("tenantId", "hour");

-- CreateIndex
CREATE INDEX "UsageHour_endpointId_hour_idx" ON "UsageHour"("endpointId", "hour");

-- AddForeignKey
ALTER TABLE "PlanPrice" ADD CONSTRAINT "PlanPrice_planId_fkey" FOREIGN KEY ("planId") REFERENCES "PricePlan"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A plan's single price becomes its first dated price, in force since the plan was made.
INSERT INTO "PlanPrice" (id, "planId", "effectiveFrom", "inputPer1M", "outputPer1M", "perRequest")
SELECT 'pp_' || md5(id), id, "createdAt", "inputPer1M", "outputPer1M", "perRequest" FROM "PricePlan";

ALTER TABLE "PricePlan" DROP COLUMN "inputPer1M",
DROP COLUMN "outputPer1M",
DROP COLUMN "perRequest";

-- Every insert into the call log (the gateway's flushes, a spool replayed after an outage) marks
-- the hours it touched, so the roll-up job recomputes exactly those. One statement-level trigger
-- per flush, not one per row. Deletes (retention) do not: the roll-ups keep the aggregates.
CREATE FUNCTION kule_usage_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "UsageDirtyHour" (hour)
  SELECT DISTINCT date_trunc('hour', "startedAt") FROM new_rows
  -- DO UPDATE (not NOTHING) takes the row lock: the roll-up's claim of the hour then waits for
  -- this insert's transaction, so its rows are seen or the hour is marked again.
  ON CONFLICT (hour) DO UPDATE SET "markedAt" = now();
  RETURN NULL;
END
$$;

CREATE TRIGGER "CallLog_usage_dirty" AFTER INSERT ON "CallLog"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kule_usage_mark_dirty();
