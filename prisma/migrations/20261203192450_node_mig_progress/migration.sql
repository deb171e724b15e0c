-- AlterTable
ALTER TABLE "Node" ADD COLUMN     "migConfig" TEXT,
ADD COLUMN     "migReason" TEXT,
ADD COLUMN     "migState" TEXT,
ADD COLUMN     "migStateSince" TIMESTAMP(3);
