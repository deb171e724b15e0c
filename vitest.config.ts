import { defineConfig } from "vitest/config";
import fs from "node:fs";
import path from "node:path";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  test: {
    // Errors thrown outside any test (an unhandled rejection, an 'error' event nobody listens to)
    // fail the run after every test passed; npm test repeats them at the end of its output, where
    // a CI log that keeps only the tail still shows them (scripts/test.ts).
    onUnhandledError(error) {
      const file = process.env.KULE_TEST_ERRORS_FILE;
      if (file) fs.appendFileSync(file, `${error.type ?? "Error"}: ${error.stack ?? error.message}\n\n`);
    },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "deploy/**/*.test.ts"],
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
          // One file at a time (vitest's default on 2 cores): the files share the run's database and
          // simulator, and several assert what only they changed (validation's "writes nothing"
          // counts every table) or run a cluster sync that reconciles another file's replicas.
          // Two files at a time took 5.5 min instead of 9 but failed four such files.
          maxWorkers: 1,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
