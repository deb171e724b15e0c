-- AlterTable
ALTER TABLE "DestructionRecord" ADD COLUMN     "store" TEXT NOT NULL DEFAULT 'call_log';

-- AlterTable
ALTER TABLE "KvkkSettings" ADD COLUMN     "trafficLogMinDays" INTEGER;

-- CreateTable
CREATE TABLE "PolicyEntry" (
    "store" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "dataSubjects" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "legalBasis" TEXT NOT NULL,
    "periodDays" INTEGER,
    "periodReason" TEXT NOT NULL,
    "responsible" TEXT NOT NULL,
    "updatedByEmail" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PolicyEntry_pkey" PRIMARY KEY ("store")
);

-- CreateTable
CREATE TABLE "LegalHold" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT,
    "subjectHash" TEXT,
    "reason" TEXT NOT NULL,
    "createdByEmail" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "releasedAt" TIMESTAMP(3),
    "releasedByEmail" TEXT,

    CONSTRAINT "LegalHold_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DestructionRun" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,
    "actorEmail" TEXT,
    "summary" JSONB NOT NULL,

    CONSTRAINT "DestructionRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DestructionRun_startedAt_idx" ON "DestructionRun"("startedAt");

-- The policy Kule starts with: every store of personal data it keeps, with a period and its reason.
-- The operator reviews and edits it (/kvkk/policy); the periodic destruction reads the periods.
INSERT INTO "PolicyEntry" (store, category, "dataSubjects", purpose, "legalBasis", "periodDays", "periodReason", responsible, "updatedAt") VALUES
 ('call_log', 'Call log: client IP, API key, subject hash (HMAC of the user field), times, tokens', 'Tenants'' end users and staff calling the API', 'Billing, SLA evidence, abuse and security investigation, data subjects'' requests', 'KVKK Art. 5(2)(c) performance of the contract; Art. 5(2)(ç) legal obligation (Law 5651 where it applies); Art. 5(2)(f) legitimate interest (security)', NULL, 'Per tenant (the tenant''s retention, else the platform default); never below the Law 5651 minimum when one is set', 'Platform operator''s data protection officer', now()),
 ('audit_ip', 'Audit events: the IP address of the staff member or tenant user who acted', 'Staff and tenant users', 'Security: tracing who changed what from where', 'KVKK Art. 5(2)(f) legitimate interest; Art. 12 security measures (access logs)', 730, 'Two years covers the period in which misuse is usually found; the event itself (who, what, when) is kept, only the IP is erased', 'Platform operator''s security officer', now()),
 ('exports', 'Call-log export files and their jobs (manifests, filters)', 'Tenants'' end users; staff who exported', 'Handing data to a tenant, an auditor or a data subject', 'KVKK Art. 5(2)(c), Art. 11 (the data subject''s right to information)', 30, 'An export is a copy made for one delivery; 30 days lets the recipient download it', 'Platform operator''s data protection officer', now()),
 ('subject_requests', 'Data subjects'' applications: subject hash, channel, identity check, answer', 'Data subjects', 'Answering applications under KVKK Art. 11 and 13, and proving the answer', 'KVKK Art. 5(2)(ç) legal obligation; Art. 5(2)(e) establishing or defending a right', 1095, 'Three years after closing: the period in which a complaint to the Board or a claim is expected', 'Platform operator''s data protection officer', now()),
 ('destruction_records', 'Destruction records and runs', 'None directly (counts, hashes, who ran them)', 'Proving destruction', 'Regulation on Erasure, Destruction or Anonymisation Art. 7(3)', NULL, 'Kept at least 3 years (a trigger refuses an earlier delete); not destroyed by the periodic run', 'Platform operator''s data protection officer', now()),
 ('transfer_register', 'Register of transfers abroad: tenant, hour, region, count, safeguard', 'None (no personal data)', 'Proving which transfers abroad happened under which safeguard (KVKK Art. 9)', 'KVKK Art. 9; Art. 12 (accountability)', NULL, 'Holds no personal data; kept as long as the platform runs', 'Platform operator''s data protection officer', now()),
 ('gateway_journal', 'Gateway call journal (spool): call-log rows not yet written to the database', 'As the call log', 'Losing no answered call when a gateway or the database fails', 'As the call log', NULL, 'Kept only until its rows reach the database, then truncated by the gateway (seconds); the periodic run has nothing to destroy there', 'Platform operator''s operations team', now());
