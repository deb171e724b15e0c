-- A key version made current (or retired) reaches every gateway as a configuration change: each
-- checks at once that it holds the new current key, and logs under it or refuses calls.
CREATE TRIGGER "SubjectKeyVersion_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "SubjectKeyVersion" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();

-- Subject hashes written before keys had versions were made with the single key the standard
-- ring now calls v1 (server/call-log/keys/rings.ts), so they are found under it.
UPDATE "CallLog" SET "userHashKeyVersion" = 'v1' WHERE "userHash" IS NOT NULL AND "userHashKeyVersion" IS NULL;
UPDATE "DataSubjectRequest" SET "subjectHashes" = ARRAY["subjectHash"] WHERE cardinality("subjectHashes") = 0;
UPDATE "LegalHold" SET "subjectHashes" = ARRAY["subjectHash"] WHERE "subjectHash" IS NOT NULL AND cardinality("subjectHashes") = 0;
