-- The seal's hour digest changes from an additive multiset hash (lane-wise sums of each row's
-- SHA-256: open to a generalized-birthday forgery by whoever can rewrite many rows of one hour)
-- to SHA-256 over the hour's rows in (time, id) order. Segments sealed under the old scheme cannot
-- be checked under the new one, so they are removed and the next seal cycle seals every hour
-- again from the rows as they stand. Destruction records keep their old adjustments (they may not
-- be altered); the chain check ignores adjustments of the old form. The reset is itself an audit
-- event, so an auditor sees where and why the chains restart.
WITH gone AS (
  DELETE FROM "SealSegment" RETURNING stream, start
)
INSERT INTO "AuditEvent" (action, "targetType", "targetId", after, at)
SELECT 'audit.seal.reset', 'seal', NULL,
       jsonb_build_object(
         'reason', 'hour digest changed from an additive multiset hash to ordered SHA-256; every hour is sealed again from its current rows',
         'segmentsRemoved', count(*),
         'sealedFrom', to_char(min(start), 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
         'sealedThrough', to_char(max(start) + interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
       now() AT TIME ZONE 'UTC'
  FROM gone
HAVING count(*) > 0;
