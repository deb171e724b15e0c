-- CreateEnum
CREATE TYPE "ApplicationChannel" AS ENUM ('written', 'kep', 'e_signature', 'registered_email', 'application_form');

-- CreateEnum
CREATE TYPE "SubjectRight" AS ENUM ('learn_whether_processed', 'request_information', 'learn_purpose', 'know_recipients', 'rectification', 'erasure', 'notify_recipients', 'object_automated_result', 'compensation');

-- CreateEnum
CREATE TYPE "ApplicationStatus" AS ENUM ('received', 'in_progress', 'answered', 'refused');

-- AlterTable
ALTER TABLE "DataSubjectRequest" ADD COLUMN     "answer" TEXT,
ADD COLUMN     "answeredAt" TIMESTAMP(3),
ADD COLUMN     "answeredByEmail" TEXT,
ADD COLUMN     "channel" "ApplicationChannel",
ADD COLUMN     "dueAt" TIMESTAMP(3),
ADD COLUMN     "identityCheck" TEXT,
ADD COLUMN     "receivedAt" TIMESTAMP(3),
ADD COLUMN     "refusalReason" TEXT,
ADD COLUMN     "right" "SubjectRight",
ADD COLUMN     "status" "ApplicationStatus" NOT NULL DEFAULT 'received',
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "DataSubjectRequest_tenantId_status_idx" ON "DataSubjectRequest"("tenantId", "status");
