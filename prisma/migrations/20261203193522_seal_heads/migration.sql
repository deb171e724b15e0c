-- CreateTable
CREATE TABLE "SealHead" (
    "id" BIGSERIAL NOT NULL,
    "stream" TEXT NOT NULL,
    "through" TIMESTAMP(3) NOT NULL,
    "segments" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "signedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SealHead_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SealHead_stream_through_key" ON "SealHead"("stream", "through");
