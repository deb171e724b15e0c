-- CreateEnum
CREATE TYPE "RolloutState" AS ENUM ('running', 'paused', 'succeeded', 'rolled_back', 'aborted');

-- AlterTable
ALTER TABLE "EndpointVersion" ADD COLUMN     "drainStartedAt" TIMESTAMP(3),
ADD COLUMN     "drainTimeoutSeconds" INTEGER,
ADD COLUMN     "keepWarmUntil" TIMESTAMP(3),
ADD COLUMN     "lastFullAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Rollout" (
    "id" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "stableVersionId" TEXT NOT NULL,
    "canaryVersionId" TEXT NOT NULL,
    "steps" JSONB NOT NULL,
    "analysis" JSONB NOT NULL,
    "stepIndex" INTEGER NOT NULL DEFAULT 0,
    "stepStartedAt" TIMESTAMP(3) NOT NULL,
    "drainTimeoutSeconds" INTEGER NOT NULL DEFAULT 120,
    "pausedAt" TIMESTAMP(3),
    "state" "RolloutState" NOT NULL DEFAULT 'running',
    "outcome" JSONB,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Rollout_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Rollout_endpointId_state_idx" ON "Rollout"("endpointId", "state");

-- AddForeignKey
ALTER TABLE "Rollout" ADD CONSTRAINT "Rollout_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "Endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One plan in progress per endpoint, enforced by the database as well as by the code that
-- refuses a second one with the reason (Prisma cannot express a partial unique index).
CREATE UNIQUE INDEX "Rollout_one_active_per_endpoint" ON "Rollout"("endpointId") WHERE "state" IN ('running', 'paused');

-- Versions that held 100% before this migration count as the last full holders.
UPDATE "EndpointVersion" SET "lastFullAt" = "updatedAt" WHERE weight = 100;
