-- The tenant portal's refusals panel (server/usage/refusals.ts) counts the calls a limit refused or
-- the overload queue shed over up to 90 days. Read through ("tenantId", "startedAt") that is every
-- call of the tenant (1.8 s for the benchmark's biggest tenant); through this partial index, only
-- the refused ones, which are few. Rows outside its predicate cost an insert nothing but the test.
CREATE INDEX "CallLog_refusals_idx" ON "CallLog" ("tenantId", "startedAt") WHERE status IN (429, 503) AND "errorClass" IS NOT NULL;
