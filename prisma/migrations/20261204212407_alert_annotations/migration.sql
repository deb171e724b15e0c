-- AlterTable
ALTER TABLE "Alert" ADD COLUMN     "annotations" JSONB NOT NULL DEFAULT '{}';
