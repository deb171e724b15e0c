-- AlterTable
ALTER TABLE "ModelVersion" ADD COLUMN     "contextTokens" INTEGER;
