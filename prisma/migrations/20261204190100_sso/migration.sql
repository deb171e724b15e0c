-- AlterTable
ALTER TABLE "User" ADD COLUMN     "ssoSubject" TEXT,
ALTER COLUMN "passwordHash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "SsoRule" (
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "claim" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "tenantId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuthSettings" (
    "id" TEXT NOT NULL DEFAULT 'singleton',
    "localPasswords" BOOLEAN NOT NULL DEFAULT true,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AuthSettings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SsoRule_position_idx" ON "SsoRule"("position");

-- CreateIndex
CREATE UNIQUE INDEX "User_ssoSubject_key" ON "User"("ssoSubject");

-- AddForeignKey
ALTER TABLE "SsoRule" ADD CONSTRAINT "SsoRule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE SET NULL ON UPDATE CASCADE;
