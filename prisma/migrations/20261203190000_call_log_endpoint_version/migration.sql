-- CallLog."modelVersionId" always held an EndpointVersion id: name it for what it holds. A rename
-- keeps every row (and the seals: they hash the values, not the column names); on the
-- partitioned table it reaches every partition.
ALTER TABLE "CallLog" RENAME COLUMN "modelVersionId" TO "endpointVersionId";
ALTER INDEX "CallLog_modelVersionId_startedAt_idx" RENAME TO "CallLog_endpointVersionId_startedAt_idx";
