-- CreateEnum
CREATE TYPE "SpecialCategory" AS ENUM ('health', 'biometric', 'genetic', 'other');

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "specialAbroadConsentRef" TEXT,
ADD COLUMN     "specialCategory" "SpecialCategory";

-- AlterTable
ALTER TABLE "Endpoint" ADD COLUMN     "specialCategory" "SpecialCategory";

-- AlterTable
ALTER TABLE "CallLog" ADD COLUMN     "clientIpEnc" TEXT,
ADD COLUMN     "clientIpHash" TEXT,
ADD COLUMN     "ipKeyVersion" TEXT,
ADD COLUMN     "userHashKeyVersion" TEXT;

-- AlterTable
ALTER TABLE "KvkkSettings" ADD COLUMN     "specialRetentionMaxDays" INTEGER NOT NULL DEFAULT 365;

-- AlterTable
ALTER TABLE "LegalHold" ADD COLUMN     "subjectHashes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "DataSubjectRequest" ADD COLUMN     "subjectHashes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "SubjectKeyVersion" (
    "version" TEXT NOT NULL,
    "ring" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "currentSince" TIMESTAMP(3),
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "SubjectKeyVersion_pkey" PRIMARY KEY ("version")
);

-- CreateTable
CREATE TABLE "GatewayKeyReport" (
    "instance" TEXT NOT NULL,
    "holds" JSONB NOT NULL,
    "logsUnder" TEXT[],
    "refusing" TEXT,
    "reportedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewayKeyReport_pkey" PRIMARY KEY ("instance")
);

-- CreateIndex
CREATE INDEX "SubjectKeyVersion_ring_currentSince_idx" ON "SubjectKeyVersion"("ring", "currentSince");

-- CreateIndex
CREATE INDEX "CallLog_clientIpHash_startedAt_idx" ON "CallLog"("clientIpHash", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_ipKeyVersion_idx" ON "CallLog"("ipKeyVersion");

-- CreateIndex
CREATE INDEX "CallLog_userHashKeyVersion_idx" ON "CallLog"("userHashKeyVersion");
