-- CreateEnum
CREATE TYPE "CostOverheadKind" AS ENUM ('energy', 'storage', 'software', 'operations');

-- CreateEnum
CREATE TYPE "CostSpread" AS ENUM ('gpu_hours', 'tokens', 'even');

-- AlterTable
ALTER TABLE "UsageDay" ADD COLUMN     "energyCost" DECIMAL(24,12) NOT NULL DEFAULT 0,
ADD COLUMN     "gpuHours" DECIMAL(24,12) NOT NULL DEFAULT 0,
ADD COLUMN     "storageCost" DECIMAL(24,12) NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CostHour" ADD COLUMN     "energyCost" DECIMAL(20,8) NOT NULL DEFAULT 0,
ADD COLUMN     "energyKwh" DECIMAL(18,6),
ADD COLUMN     "storageCost" DECIMAL(20,8) NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "CostOverhead" (
    "id" TEXT NOT NULL,
    "kind" "CostOverheadKind" NOT NULL,
    "amount" DECIMAL(18,6) NOT NULL,
    "pue" DECIMAL(6,3),
    "spread" "CostSpread",
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CostOverhead_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CostOverhead_kind_effectiveFrom_idx" ON "CostOverhead"("kind", "effectiveFrom");
