-- AlterTable
ALTER TABLE "Replica" ADD COLUMN     "gpuModel" TEXT;
