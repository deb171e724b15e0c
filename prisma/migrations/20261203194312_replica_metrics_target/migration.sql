-- AlterTable
ALTER TABLE "Replica" ADD COLUMN     "maxNumSeqs" INTEGER,
ADD COLUMN     "metricsUrl" TEXT;
