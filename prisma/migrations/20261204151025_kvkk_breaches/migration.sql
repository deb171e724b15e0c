-- CreateEnum
CREATE TYPE "BreachStatus" AS ENUM ('open', 'board_notified', 'closed');

-- CreateTable
CREATE TABLE "BreachIncident" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "detector" TEXT NOT NULL,
    "detectorKey" TEXT,
    "awareAt" TIMESTAMP(3) NOT NULL,
    "boardDueAt" TIMESTAMP(3) NOT NULL,
    "status" "BreachStatus" NOT NULL DEFAULT 'open',
    "occurredFrom" TIMESTAMP(3),
    "occurredTo" TIMESTAMP(3),
    "description" TEXT NOT NULL,
    "dataCategories" TEXT,
    "subjectCategories" TEXT,
    "consequences" TEXT,
    "measures" TEXT,
    "contact" TEXT,
    "boardNotifiedAt" TIMESTAMP(3),
    "controllersNotifiedAt" TIMESTAMP(3),
    "subjectsNotifiedAt" TIMESTAMP(3),
    "alertRequestedAt" TIMESTAMP(3),
    "createdByEmail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BreachIncident_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BreachIncident_detectorKey_key" ON "BreachIncident"("detectorKey");

-- CreateIndex
CREATE INDEX "BreachIncident_status_awareAt_idx" ON "BreachIncident"("status", "awareAt");
