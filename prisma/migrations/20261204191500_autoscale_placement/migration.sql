-- CreateEnum
CREATE TYPE "AutoscaleSignal" AS ENUM ('waiting_per_replica', 'kv_cache_usage', 'in_flight_per_replica');

-- AlterTable
ALTER TABLE "Endpoint" ADD COLUMN     "coldStartQueueLimit" INTEGER NOT NULL DEFAULT 100,
ADD COLUMN     "coldStartTimeoutSeconds" INTEGER NOT NULL DEFAULT 120;

-- AlterTable
ALTER TABLE "Replica" ADD COLUMN     "placementReason" TEXT;

-- CreateTable
CREATE TABLE "AutoscalePolicy" (
    "id" TEXT NOT NULL,
    "endpointVersionId" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "minReplicas" INTEGER NOT NULL,
    "maxReplicas" INTEGER NOT NULL,
    "signal" "AutoscaleSignal" NOT NULL,
    "target" DOUBLE PRECISION NOT NULL,
    "scaleUpWindowSeconds" INTEGER NOT NULL DEFAULT 0,
    "scaleDownWindowSeconds" INTEGER NOT NULL DEFAULT 300,
    "history" JSONB NOT NULL DEFAULT '[]',
    "lastDecision" JSONB,
    "samples" JSONB NOT NULL DEFAULT '[]',
    "wakeRequestedAt" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updatedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutoscalePolicy_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AutoscalePolicy_endpointVersionId_key" ON "AutoscalePolicy"("endpointVersionId");

-- AddForeignKey
ALTER TABLE "AutoscalePolicy" ADD CONSTRAINT "AutoscalePolicy_endpointVersionId_fkey" FOREIGN KEY ("endpointVersionId") REFERENCES "EndpointVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A gateway holds calls for a version that may scale to zero: it reloads when a policy says so (per changed row, as the other config triggers since 20261204190400).
CREATE TRIGGER "AutoscalePolicy_notify_config" AFTER INSERT OR UPDATE OF "enabled", "minReplicas" OR DELETE ON "AutoscalePolicy" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
