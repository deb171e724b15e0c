-- AlterEnum
ALTER TYPE "DestructionMethod" ADD VALUE 'unlink';

-- AlterTable
ALTER TABLE "CallLog" ADD COLUMN     "otherRegions" TEXT;

-- AlterTable
ALTER TABLE "DataSubjectRequest" ADD COLUMN     "ipIndexes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "CallLogFold" (
    "hour" TIMESTAMP(3) NOT NULL,
    "tenantId" TEXT NOT NULL,
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
    "foldedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CallLogFold_pkey" PRIMARY KEY ("hour","tenantId","endpointId","endpointVersionId")
);

-- CreateIndex
CREATE INDEX "CallLogFold_tenantId_hour_idx" ON "CallLogFold"("tenantId", "hour");

-- Element-wise sum of two histograms (bucket counts), for folding anonymised calls into the
-- roll-ups: a missing element counts 0.
CREATE OR REPLACE FUNCTION kule_add_int_arrays(a INTEGER[], b INTEGER[]) RETURNS INTEGER[] LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), ARRAY[]::INTEGER[]) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;
