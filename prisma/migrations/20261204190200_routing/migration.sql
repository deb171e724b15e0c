-- CreateEnum
CREATE TYPE "ReplicaChoice" AS ENUM ('least_outstanding', 'prefix_aware');

-- AlterTable
ALTER TABLE "Endpoint" ADD COLUMN     "fallbackEndpointIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "replicaChoice" "ReplicaChoice" NOT NULL DEFAULT 'least_outstanding',
ADD COLUMN     "requestClasses" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "EndpointVersion" ADD COLUMN     "shadowPercent" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "CallLog" ADD COLUMN     "fallbackChain" TEXT,
ADD COLUMN     "requestClass" TEXT,
ADD COLUMN     "routeReason" TEXT;
