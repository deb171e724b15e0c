-- AlterTable
ALTER TABLE "ExportJob" ADD COLUMN     "locale" TEXT NOT NULL DEFAULT 'en';
