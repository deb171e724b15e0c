import { defineConfig } from "vitest/config";
import fs from "node:fs";
import path from "node:path";
import { INTEGRATION } from "./scripts/lib/integration-projects.ts";

const alias = { "@": path.resolve(import.meta.dirname) };
/**
 * The tests' stand-ins for a site's vLLM servers and webhooks listen on 127.0.0.1: the suites run
 * as a site that allows loopback (KULE_OUTBOUND_ALLOW). What the setting refuses by default is
 * tested with explicit policies (server/http/outbound.test.ts) and the bad inputs' cases.
 */
const siteEnv = { KULE_OUTBOUND_ALLOW: "127.0.0.0/8,::1" };

export default defineConfig({
  test: {
    // Errors thrown outside any test (an unhandled rejection, an 'error' event nobody listens to)
    // fail the run after every test passed; npm test repeats them at the end of its output, where
    // a CI log that keeps only the tail still shows them (scripts/test.ts).
    onUnhandledError(error) {
      const file = process.env.KULE_TEST_ERRORS_FILE;
      if (file) fs.appendFileSync(file, `${error.type ?? "Error"}: ${error.stack ?? error.message}\n\n`);
    },
    // Two files at once across projects (vitest's default on 2 cores is one): each integration
    // project and the cluster project still take theirs one at a time.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "deploy/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/*.cluster.test.ts"],
          environment: "node",
          env: siteEnv,
        },
      },
      {
        resolve: { alias },
        // The simulator, the drivers and a real Prometheus, over real sockets on 127.0.0.1.
        test: { name: "cluster", include: ["server/**/*.cluster.test.ts"], environment: "node", env: siteEnv, maxWorkers: 1, testTimeout: 60_000, hookTimeout: 60_000 },
      },
      ...INTEGRATION.map(({ name, include, exclude }) => ({
        resolve: { alias },
        test: {
          name,
          include,
          exclude,
          environment: "node",
          env: siteEnv,
          // A scratch database and a simulator per project (server/test/global-setup.ts), so the two
          // projects run side by side (scripts/test.ts starts a vitest for each) and neither sees
          // the other's rows.
          globalSetup: ["server/test/global-setup.ts"],
          // next-auth imports "next/server" without its ".js", which Node's own loader cannot find:
          // transformed by vitest instead, so a test can drive Kule's auth route (server/auth/sso/oidc-flow.int.test.ts).
          server: { deps: { inline: ["next-auth"] } },
          // Within a project one file at a time: its files share the project's database and
          // simulator, and several assert what only they changed (validation's "writes nothing"
          // counts every table) or run a cluster sync that reconciles another file's replicas.
          maxWorkers: 1,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
    ],
  },
});
