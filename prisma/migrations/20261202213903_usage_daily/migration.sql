-- CreateTable
CREATE TABLE "UsageDay" (
    "day" DATE NOT NULL,
    "tenantId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "requests" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "promptTokens" BIGINT NOT NULL,
    "completionTokens" BIGINT NOT NULL,
    "charged" DECIMAL(24,12) NOT NULL,
    "infraCost" DECIMAL(24,12) NOT NULL,
    "latencySumMs" BIGINT NOT NULL,
    "ttftSumMs" BIGINT NOT NULL,
    "ttftCount" INTEGER NOT NULL,
    "latencyBuckets" INTEGER[],
    "ttftBuckets" INTEGER[],

    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("day","tenantId","apiKeyId","endpointId")
);

-- CreateIndex
CREATE INDEX "UsageDay_tenantId_day_idx" ON "UsageDay"("tenantId", "day");

-- Latency histograms add up bucket by bucket: an aggregate for int[] of equal length.
CREATE FUNCTION kule_int_array_add(a int[], b int[]) RETURNS int[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a
              ELSE ARRAY(SELECT coalesce(x, 0) + coalesce(y, 0) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i) ORDER BY i) END
$$;
CREATE AGGREGATE kule_sum_buckets(int[]) (SFUNC = kule_int_array_add, STYPE = int[]);
