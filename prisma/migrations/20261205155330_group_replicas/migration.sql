-- AlterTable
ALTER TABLE "ModelVersion" ADD COLUMN     "headDim" INTEGER,
ADD COLUMN     "kvHeads" INTEGER,
ADD COLUMN     "layers" INTEGER,
ADD COLUMN     "maxBatch" INTEGER,
ADD COLUMN     "pipelineParallel" INTEGER,
ADD COLUMN     "tensorParallel" INTEGER;

-- AlterTable
ALTER TABLE "Replica" ADD COLUMN     "pipelineParallel" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "tensorParallel" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Gpu" ADD COLUMN     "nvlinkDomain" INTEGER;

-- CreateTable
CREATE TABLE "ReplicaGpu" (
    "replicaId" TEXT NOT NULL,
    "gpuId" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,

    CONSTRAINT "ReplicaGpu_pkey" PRIMARY KEY ("replicaId","gpuId")
);

-- CreateIndex
CREATE INDEX "ReplicaGpu_gpuId_idx" ON "ReplicaGpu"("gpuId");

-- AddForeignKey
ALTER TABLE "ReplicaGpu" ADD CONSTRAINT "ReplicaGpu_replicaId_fkey" FOREIGN KEY ("replicaId") REFERENCES "Replica"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReplicaGpu" ADD CONSTRAINT "ReplicaGpu_gpuId_fkey" FOREIGN KEY ("gpuId") REFERENCES "Gpu"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Every replica already on a GPU (whole or a MIG instance) holds that one GPU.
INSERT INTO "ReplicaGpu" ("replicaId", "gpuId", "rank") SELECT "id", "gpuId", 0 FROM "Replica" WHERE "gpuId" IS NOT NULL;
