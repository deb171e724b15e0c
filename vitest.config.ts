import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/*.cluster.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        // The simulator, the drivers and a real Prometheus, over real sockets on 127.0.0.1.
        test: { name: "cluster", include: ["server/**/*.cluster.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["server/**/*.int.test.ts"],
          environment: "node",
          // A scratch database per run, migrated once (server/test/global-setup.ts).
          globalSetup: ["server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
