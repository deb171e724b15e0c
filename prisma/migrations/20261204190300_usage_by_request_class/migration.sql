-- AlterTable
ALTER TABLE "UsageHour" DROP CONSTRAINT "UsageHour_pkey",
ADD COLUMN     "requestClass" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("hour", "tenantId", "apiKeyId", "endpointId", "endpointVersionId", "requestClass");

-- AlterTable
ALTER TABLE "UsageDay" DROP CONSTRAINT "UsageDay_pkey",
ADD COLUMN     "requestClass" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("day", "tenantId", "apiKeyId", "endpointId", "requestClass");
