-- AlterTable
ALTER TABLE "CallLog" ADD COLUMN     "traceId" TEXT;
