import { defineConfig } from "prisma/config";

// Used by `prisma generate` (and by `prisma migrate deploy` where the native engine can be had);
// our own scripts/migrate.ts applies the same migrations offline.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  // generate needs no database; the url matters only to the CLI's migrate commands.
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/kule" },
});
