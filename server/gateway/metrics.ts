import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { LoopDelay } from "./loop-delay.ts";

/** Buckets of the latency histograms (charts, canary judgments); SLOs are counted exactly instead (sloRequests). */
export const GATEWAY_SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

/** An endpoint's SLO thresholds in force (Endpoint.sloP99LatencyMs, sloTtftMs), as the gateway's config holds them. */
export interface SloThresholds {
  latencyMs: number | null;
  ttftMs: number | null;
}
const NO_SLO: SloThresholds = { latencyMs: null, ttftMs: null };

/** What the metrics read of the call log (CallLogThread). */
export interface CallLogHealth {
  spooledRows: number;
  heldRows: number;
  journalFailing: boolean;
  spoolFailing: boolean;
  journalWriteErrors: number;
}

/** The gateway's own metrics on /metrics, scraped by Prometheus like the replicas. */
export function gatewayMetrics(sources: { inFlight: () => number; callLog: CallLogHealth; configAge: () => number; limitsShared?: () => boolean }) {
  const registry = new Registry();
  const labelNames = ["endpoint", "version", "tenant", "status"] as const;
  const seconds = [...GATEWAY_SECONDS_BUCKETS];
  const requests = new Counter({ name: "kule_gateway_requests_total", help: "Requests answered by the gateway.", labelNames, registers: [registry] });
  const duration = new Histogram({ name: "kule_gateway_request_duration_seconds", help: "Time from request to the end of the answer.", labelNames, buckets: seconds, registers: [registry] });
  const ttft = new Histogram({ name: "kule_gateway_ttft_seconds", help: "Time to the first byte of the upstream's answer, measured at the gateway.", labelNames, buckets: seconds, registers: [registry] });
  // Microseconds to a quarter second: what the gateway adds is small, and its tail is what matters.
  const overhead = new Histogram({ name: "kule_gateway_overhead_seconds", help: "The gateway's own time per call that reached a replica: its whole time minus the replica's.", labelNames: ["endpoint"], buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25], registers: [registry] });
  // Each request judged against its endpoint's SLO thresholds here, where its exact time is known:
  // a histogram would read a threshold between its buckets at the bucket below (server/metrics/slo).
  const sloRequests = new Counter({
    name: "kule_gateway_slo_requests_total",
    help: "Requests judged against their endpoint's latency and TTFT SLO thresholds: result good (within threshold_ms) or bad.",
    labelNames: ["endpoint", "slo", "threshold_ms", "result"],
    registers: [registry],
  });
  // Shadow traffic (shadow.ts): a candidate version measured on copies of real calls, apart from the tenant-facing figures.
  const shadowLabels = ["endpoint", "version", "status"] as const;
  const shadowRequests = new Counter({ name: "kule_gateway_shadow_requests_total", help: "Shadow copies of calls sent to a candidate version (answers discarded, never billed); status 0: no answer began.", labelNames: shadowLabels, registers: [registry] });
  const shadowDuration = new Histogram({ name: "kule_gateway_shadow_request_duration_seconds", help: "Shadow copies' time from sending to the end of the answer.", labelNames: shadowLabels, buckets: seconds, registers: [registry] });
  const shadowTtft = new Histogram({ name: "kule_gateway_shadow_ttft_seconds", help: "Shadow copies' time to the first token (streams).", labelNames: shadowLabels, buckets: seconds, registers: [registry] });
  const tokens = new Counter({ name: "kule_gateway_tokens_total", help: "Tokens in served requests.", labelNames: ["endpoint", "version", "tenant", "kind"], registers: [registry] });
  new Gauge({ name: "kule_gateway_in_flight_requests", help: "Requests being served now.", registers: [registry], collect() { this.set(sources.inFlight()); } });
  const log = sources.callLog;
  new Gauge({ name: "kule_gateway_call_log_spool_rows", help: "Call-log rows waiting in the local spool for the database.", registers: [registry], collect() { this.set(log.spooledRows); } });
  // The alarm of a full or failing disk: rows then live in the gateway's memory only, and a crash would lose them.
  new Gauge({ name: "kule_gateway_call_log_held_rows", help: "Call-log rows held in memory only: neither stored, journaled nor spooled.", registers: [registry], collect() { this.set(log.heldRows); } });
  new Gauge({
    name: "kule_gateway_call_log_disk_failing",
    help: "1 while the disk refuses writes to the call-log journal or spool (full or failing).",
    labelNames: ["file"],
    registers: [registry],
    aggregator: "max",
    collect() {
      this.set({ file: "journal" }, log.journalFailing ? 1 : 0);
      this.set({ file: "spool" }, log.spoolFailing ? 1 : 0);
    },
  });
  let journalErrorsSeen = 0;
  new Counter({
    name: "kule_gateway_call_log_journal_write_errors_total",
    help: "Writes to the call-log journal the disk refused.",
    registers: [registry],
    collect() {
      this.inc(log.journalWriteErrors - journalErrorsSeen);
      journalErrorsSeen = log.journalWriteErrors;
    },
  });
  // How long callbacks waited for the loop since the last scrape (loop-delay.ts), off the calls.
  const loop = new LoopDelay();
  new Gauge({
    name: "kule_gateway_event_loop_delay_seconds",
    help: "Event-loop delay since the last scrape: p99 and max.",
    labelNames: ["quantile"],
    registers: [registry],
    aggregator: "max",
    collect() {
      const d = loop.read();
      this.set({ quantile: "0.99" }, d.p99Ms / 1000);
      this.set({ quantile: "1" }, d.maxMs / 1000);
    },
  });
  new Gauge({ name: "kule_gateway_config_age_seconds", help: "Seconds since the routing config was loaded.", registers: [registry], aggregator: "max", collect() { this.set(sources.configAge()); } });
  const shared = sources.limitsShared;
  // Only where limits are meant to be shared (REDIS_URL): 0 means each process holds them alone.
  if (shared) new Gauge({ name: "kule_gateway_limits_shared", help: "1 while rate limits are shared with the other gateways through Redis; 0 while Redis is away and each process holds each limit alone.", registers: [registry], aggregator: "min", collect() { this.set(shared() ? 1 : 0); } });
  // A series' child is found once and kept: prom-client otherwise sorts and joins the labels into a
  // key on every inc() and observe(), five times a call. As many entries as the series themselves.
  const children = new Map<string, ReturnType<typeof childrenFor>>();
  const childrenFor = (l: { endpoint: string; version: string; tenant: string; status: number }) => {
    const labels = { endpoint: l.endpoint, version: l.version, tenant: l.tenant, status: String(l.status) };
    const t = { endpoint: l.endpoint, version: l.version, tenant: l.tenant };
    return { requests: requests.labels(labels), duration: duration.labels(labels), ttft: ttft.labels(labels), overhead: overhead.labels({ endpoint: l.endpoint }), input: tokens.labels({ ...t, kind: "input" }), output: tokens.labels({ ...t, kind: "output" }) };
  };
  const childrenOf = (l: { endpoint: string; version: string; tenant: string; status: number }) => {
    const key = `${l.endpoint}\u0000${l.version}\u0000${l.tenant}\u0000${l.status}`;
    let c = children.get(key);
    if (!c) children.set(key, (c = childrenFor(l)));
    return c;
  };
  const sloChildren = new Map<string, ReturnType<typeof sloRequests.labels>>();
  const sloChild = (endpoint: string, slo: "latency" | "ttft", thresholdMs: number, good: boolean) => {
    const key = `${endpoint}\u0000${slo}\u0000${thresholdMs}\u0000${good}`;
    let c = sloChildren.get(key);
    if (!c) sloChildren.set(key, (c = sloRequests.labels({ endpoint, slo, threshold_ms: String(thresholdMs), result: good ? "good" : "bad" })));
    return c;
  };

  return {
    registry,
    observeShadow(endpoint: string, version: string, status: number, durationS: number, ttftS: number | null) {
      const labels = { endpoint, version, status: String(status) };
      shadowRequests.inc(labels);
      if (status) shadowDuration.observe(labels, durationS);
      if (ttftS !== null) shadowTtft.observe(labels, ttftS);
    },
    observe(
      l: { endpoint: string; version: string; tenant: string; status: number },
      durationS: number,
      ttftS: number | null,
      prompt: number,
      completion: number,
      slo: SloThresholds = NO_SLO,
      overheadS: number | null = null,
    ) {
      const c = childrenOf(l);
      if (overheadS !== null) c.overhead.observe(overheadS);
      if (slo.latencyMs !== null) sloChild(l.endpoint, "latency", slo.latencyMs, durationS * 1000 <= slo.latencyMs).inc();
      if (slo.ttftMs !== null && ttftS !== null) sloChild(l.endpoint, "ttft", slo.ttftMs, ttftS * 1000 <= slo.ttftMs).inc();
      c.requests.inc();
      c.duration.observe(durationS);
      if (ttftS !== null) c.ttft.observe(ttftS);
      if (prompt) c.input.inc(prompt);
      if (completion) c.output.inc(completion);
    },
  };
}
