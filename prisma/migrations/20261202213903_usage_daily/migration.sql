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
