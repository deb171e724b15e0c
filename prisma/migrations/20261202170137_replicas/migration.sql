-- CreateEnum
CREATE TYPE "ReplicaState" AS ENUM ('pending', 'loading', 'ready', 'draining', 'stopped', 'failed');

-- CreateTable
CREATE TABLE "Replica" (
    "id" TEXT NOT NULL,
    "endpointVersionId" TEXT NOT NULL,
    "driver" "ClusterDriverKind" NOT NULL,
    "nodeId" TEXT,
    "gpuId" TEXT,
    "migStartSlot" INTEGER,
    "externalUrl" TEXT,
    "url" TEXT,
    "region" TEXT NOT NULL,
    "state" "ReplicaState" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "expectedReadyAt" TIMESTAMP(3),
    "readyAt" TIMESTAMP(3),
    "stoppedAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Replica_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Replica_endpointVersionId_idx" ON "Replica"("endpointVersionId");

-- CreateIndex
CREATE INDEX "Replica_state_idx" ON "Replica"("state");

-- AddForeignKey
ALTER TABLE "Replica" ADD CONSTRAINT "Replica_endpointVersionId_fkey" FOREIGN KEY ("endpointVersionId") REFERENCES "EndpointVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Replica" ADD CONSTRAINT "Replica_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "Node"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Replica" ADD CONSTRAINT "Replica_gpuId_fkey" FOREIGN KEY ("gpuId") REFERENCES "Gpu"("id") ON DELETE SET NULL ON UPDATE CASCADE;
