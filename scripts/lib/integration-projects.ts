/**
 * The integration tests as two projects of about equal length, which `npm test` runs side by side:
 * the gateway's (processes of its own, Redis, its call log) and the app's (tRPC callers, KVKK,
 * rollouts, the cluster). One at a time they took 9.7 min (6 min the app's, 3.5 the gateway's);
 * the files mostly wait on sockets, child processes and PostgreSQL, so two at once share the two
 * cores well.
 */
const GATEWAY_SIDE = [
  "server/gateway/**/*.int.test.ts",
  "server/call-log/**/*.int.test.ts",
  "server/telemetry/**/*.int.test.ts",
  "server/http/**/*.int.test.ts",
  "server/db/**/*.int.test.ts",
  // A minute of calls through a gateway while the slider moves: it evens the two projects' lengths.
  "server/rollouts/slider-load.int.test.ts",
];
export const INTEGRATION = [
  { name: "integration-gateway", include: GATEWAY_SIDE, exclude: [] },
  { name: "integration-app", include: ["server/**/*.int.test.ts"], exclude: GATEWAY_SIDE },
];

/** Their names: scripts/test.ts starts a vitest process for each. */
export const INTEGRATION_PROJECTS = INTEGRATION.map((p) => p.name);
