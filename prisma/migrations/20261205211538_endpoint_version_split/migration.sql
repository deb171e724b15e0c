-- AlterTable
ALTER TABLE "EndpointVersion" ADD COLUMN     "pipelineParallel" INTEGER,
ADD COLUMN     "tensorParallel" INTEGER;
