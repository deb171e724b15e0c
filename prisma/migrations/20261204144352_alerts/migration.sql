-- CreateEnum
CREATE TYPE "AlertStatus" AS ENUM ('firing', 'resolved');

-- CreateEnum
CREATE TYPE "AlertReceiverKind" AS ENUM ('webhook', 'email', 'slack');

-- CreateTable
CREATE TABLE "Alert" (
    "id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "name" TEXT NOT NULL,
    "status" "AlertStatus" NOT NULL,
    "severity" TEXT,
    "endpointSlug" TEXT,
    "slo" TEXT,
    "longWindow" TEXT,
    "shortWindow" TEXT,
    "summary" TEXT,
    "description" TEXT,
    "labels" JSONB NOT NULL,
    "endsAt" TIMESTAMP(3),
    "generatorUrl" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertReceiver" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "AlertReceiverKind" NOT NULL,
    "settings" JSONB NOT NULL,
    "endpointSlugs" TEXT[],
    "severities" TEXT[],
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertReceiver_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Alert_endpointSlug_startsAt_idx" ON "Alert"("endpointSlug", "startsAt");

-- CreateIndex
CREATE INDEX "Alert_status_startsAt_idx" ON "Alert"("status", "startsAt");

-- CreateIndex
CREATE UNIQUE INDEX "Alert_fingerprint_startsAt_key" ON "Alert"("fingerprint", "startsAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertReceiver_name_key" ON "AlertReceiver"("name");
