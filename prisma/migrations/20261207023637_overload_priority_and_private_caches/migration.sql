-- CreateEnum
CREATE TYPE "PriorityClass" AS ENUM ('interactive', 'standard', 'batch');

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "privatePrefixCache" BOOLEAN,
ADD COLUMN     "cacheSalt" TEXT NOT NULL DEFAULT (gen_random_uuid())::text;

-- AlterTable
ALTER TABLE "Endpoint" ADD COLUMN     "privatePrefixCache" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "mayRaisePriority" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "priority" "PriorityClass";

-- AlterTable
ALTER TABLE "PricePlan" ADD COLUMN     "fairShareWeight" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "priority" "PriorityClass" NOT NULL DEFAULT 'standard';

-- A weight of 0 would divide the fair queue's token clock by zero; the input refuses it too.
ALTER TABLE "PricePlan" ADD CONSTRAINT "PricePlan_fairShareWeight_positive" CHECK ("fairShareWeight" BETWEEN 1 AND 1000);

-- The gateway reads a key's class and header right with its config: a change of either reloads it.
DROP TRIGGER "ApiKey_notify_config" ON "ApiKey";
CREATE TRIGGER "ApiKey_notify_config" AFTER INSERT OR UPDATE OF "tenantId", "secretHash", "allowedEndpointIds", "expiresAt", "revokedAt", "rpmLimit", "tpmLimit", "priority", "mayRaisePriority" OR DELETE ON "ApiKey" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
