/**
 * The SLOs the promtool tests in slo-rules.test.yml are written against. `npm test -- rules`
 * generates slo-rules.yml from these with the production windows, then runs promtool over it.
 */
import type { EndpointSlo } from "../slo-rules.ts";

export const PROMTOOL_FIXTURE_SLOS: EndpointSlo[] = [
  // 2000 ms and 750 ms fall between the latency histogram's buckets: the SLIs must still be exact.
  { slug: "chat", availabilityPct: 99.9, p99LatencyMs: 2000, ttftMs: 750 },
  { slug: "embed", availabilityPct: 99.5, p99LatencyMs: 250, ttftMs: null },
];
