-- The call log becomes partitioned by month on "startedAt" (declarative partitioning, which the
-- Prisma schema cannot express: written by hand). Months past retention are dropped whole, and a
-- query bounded in time reads only its months. PostgreSQL wants the partition key in every unique
-- index, so the primary key becomes ("requestId", "startedAt"); the gateway's ON CONFLICT follows.

ALTER TABLE "CallLog" RENAME TO "CallLog_unpartitioned";
ALTER TABLE "CallLog_unpartitioned" RENAME CONSTRAINT "CallLog_pkey" TO "CallLog_unpartitioned_pkey";
ALTER TABLE "CallLog_unpartitioned" DROP CONSTRAINT "CallLog_tenantId_fkey";
DROP INDEX "CallLog_tenantId_startedAt_idx";
DROP INDEX "CallLog_startedAt_idx";

CREATE TABLE "CallLog" (
    "requestId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "endpointId" TEXT,
    "modelVersionId" TEXT,
    "replica" TEXT,
    "region" TEXT,
    "clientIp" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,
    "ttftMs" INTEGER,
    "status" INTEGER NOT NULL,
    "errorClass" TEXT,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "userHash" TEXT,

    CONSTRAINT "CallLog_pkey" PRIMARY KEY ("requestId","startedAt")
) PARTITION BY RANGE ("startedAt");

-- A row whose month has no partition yet (clock skew, a job that did not run) lands here rather
-- than failing the gateway's batch; creating that month's partition later moves it out.
CREATE TABLE "CallLog_default" PARTITION OF "CallLog" DEFAULT;

-- Creates the partition of the month holding `month_start` ("CallLog_YYYY_MM") if it is missing,
-- moving that month's rows out of the default partition first (PostgreSQL refuses to create a
-- partition whose range the default partition already holds rows of).
CREATE OR REPLACE FUNCTION kule_call_log_partition(month_start timestamp) RETURNS text AS $$
DECLARE
  from_ts timestamp := date_trunc('month', month_start);
  to_ts timestamp := date_trunc('month', month_start) + interval '1 month';
  part text := 'CallLog_' || to_char(date_trunc('month', month_start), 'YYYY_MM');
  stray bigint;
BEGIN
  IF to_regclass(format('public.%I', part)) IS NOT NULL THEN
    RETURN part;
  END IF;
  -- Serialises concurrent callers (two app processes running the job at once).
  PERFORM pg_advisory_xact_lock(hashtext('kule_call_log_partition'));
  IF to_regclass(format('public.%I', part)) IS NOT NULL THEN
    RETURN part;
  END IF;
  SELECT count(*) INTO stray FROM "CallLog_default" WHERE "startedAt" >= from_ts AND "startedAt" < to_ts;
  IF stray > 0 THEN
    CREATE TEMP TABLE kule_call_log_moving ON COMMIT DROP AS SELECT * FROM "CallLog_default" WHERE false;
    WITH moved AS (DELETE FROM "CallLog_default" WHERE "startedAt" >= from_ts AND "startedAt" < to_ts RETURNING *)
      INSERT INTO kule_call_log_moving SELECT * FROM moved;
  END IF;
  EXECUTE format('CREATE TABLE public.%I PARTITION OF "CallLog" FOR VALUES FROM (%L) TO (%L)', part, from_ts, to_ts);
  IF stray > 0 THEN
    INSERT INTO "CallLog" SELECT * FROM kule_call_log_moving;
    DROP TABLE kule_call_log_moving;
  END IF;
  RETURN part;
END;
$$ LANGUAGE plpgsql;

-- The current month and `months_ahead` more (UTC, as Prisma stores timestamps). Run by the
-- partition job in the app (server/calllog/partitions.ts) every day; idempotent.
CREATE OR REPLACE FUNCTION kule_call_log_ensure_partitions(months_ahead int DEFAULT 3) RETURNS void AS $$
DECLARE
  m int;
BEGIN
  FOR m IN 0..months_ahead LOOP
    PERFORM kule_call_log_partition(date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => m));
  END LOOP;
END;
$$ LANGUAGE plpgsql;

-- Partitions for every month that already holds rows, then the coming ones, then the rows.
SELECT kule_call_log_partition(m)
  FROM generate_series(
    date_trunc('month', coalesce((SELECT min("startedAt") FROM "CallLog_unpartitioned"), now() AT TIME ZONE 'UTC')),
    date_trunc('month', greatest(coalesce((SELECT max("startedAt") FROM "CallLog_unpartitioned"), now() AT TIME ZONE 'UTC'), now() AT TIME ZONE 'UTC')),
    interval '1 month') AS m;
SELECT kule_call_log_ensure_partitions(3);

INSERT INTO "CallLog" ("requestId", "tenantId", "apiKeyId", "endpointId", "modelVersionId", "replica", "region", "clientIp", "startedAt", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens")
  SELECT "requestId", "tenantId", "apiKeyId", "endpointId", "modelVersionId", "replica", "region", "clientIp", "startedAt", "endedAt", "ttftMs", "status", "errorClass", "promptTokens", "completionTokens"
  FROM "CallLog_unpartitioned";
DROP TABLE "CallLog_unpartitioned";

-- Indexes on the parent are created on every partition, present and future. Each serves an
-- explorer filter combined with a time range (newest first, keyset on "startedAt","requestId").
-- CreateIndex
CREATE INDEX "CallLog_tenantId_startedAt_idx" ON "CallLog"("tenantId", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_startedAt_idx" ON "CallLog"("startedAt");

-- CreateIndex
CREATE INDEX "CallLog_apiKeyId_startedAt_idx" ON "CallLog"("apiKeyId", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_endpointId_startedAt_idx" ON "CallLog"("endpointId", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_modelVersionId_startedAt_idx" ON "CallLog"("modelVersionId", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_clientIp_startedAt_idx" ON "CallLog"("clientIp", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_status_startedAt_idx" ON "CallLog"("status", "startedAt");

-- CreateIndex
CREATE INDEX "CallLog_userHash_idx" ON "CallLog"("userHash");

-- AddForeignKey
ALTER TABLE "CallLog" ADD CONSTRAINT "CallLog_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
