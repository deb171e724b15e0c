-- CreateEnum
CREATE TYPE "DestructionMethod" AS ENUM ('delete', 'anonymize');

-- CreateEnum
CREATE TYPE "ExportState" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateTable
CREATE TABLE "SealSegment" (
    "id" BIGSERIAL NOT NULL,
    "stream" TEXT NOT NULL,
    "start" TIMESTAMP(3) NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "sealedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SealSegment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KvkkSettings" (
    "id" TEXT NOT NULL DEFAULT 'singleton',
    "defaultRetentionDays" INTEGER NOT NULL DEFAULT 730,
    "destructionIntervalDays" INTEGER NOT NULL DEFAULT 30,
    "sealGraceMinutes" INTEGER NOT NULL DEFAULT 120,
    "lastDestructionAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KvkkSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TenantRetention" (
    "tenantId" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "method" "DestructionMethod" NOT NULL DEFAULT 'delete',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TenantRetention_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "DestructionRecord" (
    "id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "policy" JSONB NOT NULL,
    "tenantId" TEXT,
    "subjectHash" TEXT,
    "periodFrom" TIMESTAMP(3) NOT NULL,
    "periodTo" TIMESTAMP(3) NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "method" "DestructionMethod" NOT NULL,
    "partitionsDropped" TEXT[],
    "adjustments" JSONB NOT NULL,
    "runById" TEXT,
    "runByEmail" TEXT,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "keepUntil" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DestructionRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExportJob" (
    "id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "filter" JSONB NOT NULL,
    "tenantScope" TEXT,
    "requestedById" TEXT NOT NULL,
    "requestedByEmail" TEXT NOT NULL,
    "state" "ExportState" NOT NULL DEFAULT 'queued',
    "rowsDone" INTEGER NOT NULL DEFAULT 0,
    "rowsTotal" INTEGER,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "sha256" TEXT,
    "manifest" JSONB,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ExportJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataSubjectRequest" (
    "id" TEXT NOT NULL,
    "subjectHash" TEXT NOT NULL,
    "tenantId" TEXT,
    "reference" TEXT,
    "rowsFound" INTEGER NOT NULL,
    "exportJobId" TEXT,
    "destructionId" TEXT,
    "requestedById" TEXT NOT NULL,
    "requestedByEmail" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "DataSubjectRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SealSegment_stream_start_key" ON "SealSegment"("stream", "start");

-- CreateIndex
CREATE INDEX "DestructionRecord_tenantId_runAt_idx" ON "DestructionRecord"("tenantId", "runAt");

-- CreateIndex
CREATE INDEX "DestructionRecord_runAt_idx" ON "DestructionRecord"("runAt");

-- CreateIndex
CREATE INDEX "ExportJob_requestedById_createdAt_idx" ON "ExportJob"("requestedById", "createdAt");

-- CreateIndex
CREATE INDEX "DataSubjectRequest_createdAt_idx" ON "DataSubjectRequest"("createdAt");

-- Hand-written: rules Prisma's schema cannot express.
-- The 2017 regulation: periodic destruction at intervals of at most 6 months.
ALTER TABLE "KvkkSettings" ADD CONSTRAINT "KvkkSettings_interval_range" CHECK ("destructionIntervalDays" BETWEEN 1 AND 182);
ALTER TABLE "KvkkSettings" ADD CONSTRAINT "KvkkSettings_retention_positive" CHECK ("defaultRetentionDays" >= 1);
ALTER TABLE "KvkkSettings" ADD CONSTRAINT "KvkkSettings_grace_range" CHECK ("sealGraceMinutes" BETWEEN 5 AND 10080);
ALTER TABLE "KvkkSettings" ADD CONSTRAINT "KvkkSettings_singleton" CHECK ("id" = 'singleton');
INSERT INTO "KvkkSettings" ("id", "updatedAt") VALUES ('singleton', CURRENT_TIMESTAMP);
ALTER TABLE "TenantRetention" ADD CONSTRAINT "TenantRetention_days_positive" CHECK ("days" >= 1);
ALTER TABLE "TenantRetention" ADD CONSTRAINT "TenantRetention_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Destruction records are kept at least 3 years: the database itself refuses an earlier delete.
CREATE OR REPLACE FUNCTION kule_keep_destruction_records() RETURNS trigger AS $$
BEGIN
  IF OLD."keepUntil" > (now() AT TIME ZONE 'UTC') THEN
    RAISE EXCEPTION 'destruction record % is kept until %', OLD."id", OLD."keepUntil";
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER "DestructionRecord_keep" BEFORE DELETE ON "DestructionRecord" FOR EACH ROW EXECUTE FUNCTION kule_keep_destruction_records();
