import type pg from "pg";
import type { Rings } from "../call-log/keys/rings.ts";
import type { TrustedProxies } from "../http/client-ip.ts";
import type { Limiter } from "./limits.ts";
import type { GatewayTracing } from "./tracing.ts";
import type { GenAiMetrics } from "./genai-metrics.ts";

/** What a Gateway (server.ts) is started with: main.ts fills it from the environment, tests by hand. */
export interface GatewayOptions {
  pool: pg.Pool;
  databaseUrl: string;
  spoolDir: string;
  maxBodyBytes: number;
  limiter?: Limiter;
  /** Consecutive failures after which a replica is taken out, and for how long. */
  cooldown?: { failures: number; ms: number };
  /** The call log's key rings (server/call-log/keys); defaults to this process's, from the environment. */
  rings?: Rings;
  /** How this process is named on the KVKK page's key report; host:port:pid by default. */
  instance?: string;
  /** What /metrics serves; a worker of a multi-process gateway serves every worker's sum (workers.ts). */
  metricsText?: () => Promise<string>;
  /** Whose X-Forwarded-For to believe for the call log's client address (none by default). */
  trustedProxies?: TrustedProxies;
  /** OpenTelemetry traces of inference calls (tracing.ts); none = off. The gateway shuts it down on close. */
  tracing?: GatewayTracing;
  /** OpenTelemetry GenAI metrics of inference calls (genai-metrics.ts); none = off. Shut down on close, like tracing. */
  genAi?: GenAiMetrics;
  /** How often the call-log journal is cut and its rows sent to PostgreSQL (workers.ts: callLogFlushMs). */
  callLogFlushMs?: number;
  /** Set: the Open Inference Protocol's gRPC service is served on this port too (grpc/service.ts); 0 is any free port. */
  grpcPort?: number;
  /** Gateway processes sharing the replicas (workers.ts): each holds back its share of what an engine takes at once. */
  processes?: number;
  /** The overload queue (overload/gate.ts); on by default, off only for the benchmark's first-come baseline. */
  overloadQueue?: boolean;
  /** How often the replicas' engines' /metrics are read for the overload queue (overload/engine-load.ts); 1 s by default. */
  engineLoadEveryMs?: number;
  /** How long a replica may take to its first byte before an endpoint with fallbacks moves the call on (10 s by default). */
  fallbackFirstByteMs?: number;
}
