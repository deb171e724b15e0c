-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "processingAgreementRef" TEXT,
ADD COLUMN     "processingAgreementSignedAt" TIMESTAMP(3),
ADD COLUMN     "verbisNumber" TEXT;
