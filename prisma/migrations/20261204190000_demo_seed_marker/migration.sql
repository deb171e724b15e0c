-- CreateTable
CREATE TABLE "DemoSeedMarker" (
    "name" TEXT NOT NULL,
    "seededAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "details" JSONB NOT NULL,

    CONSTRAINT "DemoSeedMarker_pkey" PRIMARY KEY ("name")
);
