-- CreateEnum
CREATE TYPE "MigChangeState" AS ENUM ('running', 'cancelled', 'done', 'failed');

-- CreateTable
CREATE TABLE "MigChange" (
    "id" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "plan" JSONB NOT NULL,
    "moveBack" BOOLEAN NOT NULL DEFAULT false,
    "step" INTEGER NOT NULL DEFAULT 0,
    "state" "MigChangeState" NOT NULL DEFAULT 'running',
    "log" JSONB NOT NULL DEFAULT '[]',
    "started" JSONB NOT NULL DEFAULT '{}',
    "reason" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "MigChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MigChange_state_idx" ON "MigChange"("state");
