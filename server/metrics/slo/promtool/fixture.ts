/**
 * The SLOs the promtool tests in slo-rules.test.yml are written against. `npm test -- rules`
 * generates slo-rules.yml from these with the production windows, then runs promtool over it.
 */
import type { EndpointSlo } from "../slo-rules.ts";

export const PROMTOOL_FIXTURE_SLOS: EndpointSlo[] = [
  // p99 2000 ms falls between the gateway's 1 s and 2.5 s buckets: measured at 1 s.
  { slug: "chat", availabilityPct: 99.9, p99LatencyMs: 2000, ttftMs: 500 },
  { slug: "embed", availabilityPct: 99.5, p99LatencyMs: 250, ttftMs: null },
];
