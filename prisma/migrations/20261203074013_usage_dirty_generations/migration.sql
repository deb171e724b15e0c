-- AlterTable
ALTER TABLE "UsageDirtyHour" ADD COLUMN     "generation" BIGINT NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "UsageDirtyDay" (
    "day" DATE NOT NULL,
    "markedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "generation" BIGINT NOT NULL DEFAULT 1,

    CONSTRAINT "UsageDirtyDay_pkey" PRIMARY KEY ("day")
);

-- Every mark of an hour bumps its generation. The roll-up reads (hour, generation), recomputes the
-- hour, marks its day and unmarks the hour only at that generation, all in one transaction: a
-- crash mid-way leaves the hour marked, and rows flushed meanwhile leave it marked for the next pass.
CREATE OR REPLACE FUNCTION kule_usage_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "UsageDirtyHour" (hour)
  SELECT DISTINCT date_trunc('hour', "startedAt") FROM new_rows
  ON CONFLICT (hour) DO UPDATE SET "markedAt" = now(), generation = "UsageDirtyHour".generation + 1;
  RETURN NULL;
END
$$;
