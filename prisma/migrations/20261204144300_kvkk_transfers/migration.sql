-- CreateEnum
CREATE TYPE "TransferMechanism" AS ENUM ('adequacy', 'standard_contract', 'bcr');

-- AlterTable
ALTER TABLE "KvkkSettings" ADD COLUMN     "transfersRolledUntil" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Replica" ADD COLUMN     "plainHttpAllowed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "regionEvidence" TEXT,
ADD COLUMN     "regionVerifiedAt" TIMESTAMP(3),
ADD COLUMN     "regionVerifiedByEmail" TEXT;

-- CreateTable
CREATE TABLE "TransferSafeguard" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "importer" TEXT NOT NULL,
    "mechanism" "TransferMechanism" NOT NULL,
    "reference" TEXT NOT NULL,
    "signedAt" TIMESTAMP(3) NOT NULL,
    "notificationDueAt" TIMESTAMP(3),
    "notifiedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdByEmail" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TransferSafeguard_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TransferRecord" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "region" TEXT NOT NULL,
    "safeguardId" TEXT,
    "calls" INTEGER NOT NULL,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TransferRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TransferSafeguard_tenantId_idx" ON "TransferSafeguard"("tenantId");

-- CreateIndex
CREATE INDEX "TransferRecord_hour_idx" ON "TransferRecord"("hour");

-- CreateIndex
CREATE INDEX "TransferRecord_tenantId_hour_idx" ON "TransferRecord"("tenantId", "hour");

-- Gateways route by safeguards and by whether a region label was verified: reload on both.
CREATE TRIGGER "TransferSafeguard_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "TransferSafeguard" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
