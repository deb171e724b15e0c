import { z } from "zod";
import { AddressSet, cidrsOf } from "./http/address-set.ts";
import { DCGM_EXPORTER_VERSIONS, EXPORTER_PROFILES, VLLM_VERSIONS, type ExporterProfile } from "./metrics/exporters/versions.ts";

/** A comma-separated list of addresses and CIDR ranges. */
const cidrList = z
  .string()
  .default("")
  .refine((v) => {
    try {
      new AddressSet(cidrsOf(v));
      return true;
    } catch {
      return false;
    }
  }, "comma-separated addresses or CIDR ranges, like 10.0.0.0/8,127.0.0.1");

// The one place configuration is read. Everything else imports `env` rather than process.env.
const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Unset: Kule starts an embedded PostgreSQL under .data/ (see server/db/embedded.ts). */
  DATABASE_URL: z.url().optional(),
  /** Port of the embedded PostgreSQL, kept away from a system server on 5432. */
  KULE_EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  KULE_DATA_DIR: z.string().default(".data"),
  AUTH_SECRET: z.string().min(16).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Failed sign-ins per e-mail before each new attempt is slowed down. */
  KULE_LOGIN_FREE_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  /** Single sign-on (OpenID Connect): the provider's issuer URL (its /.well-known/openid-configuration is read), Kule's client there, and its secret. All three set: the sign-in page offers it. */
  KULE_OIDC_ISSUER: z.url().optional(),
  KULE_OIDC_CLIENT_ID: z.string().min(1).optional(),
  KULE_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** What the sign-in button calls the provider ("Keycloak", "Microsoft Entra ID"…). */
  KULE_OIDC_NAME: z.string().min(1).max(60).default("single sign-on"),
  /** The scopes asked for: add the one that puts the groups claim in the ID token, if the provider needs it. */
  KULE_OIDC_SCOPES: z.string().default("openid email profile"),
  /** The one algorithm the provider signs ID tokens with: any other (`none`, an HMAC keyed with the client secret…) is refused. */
  KULE_OIDC_ID_TOKEN_ALG: z.enum(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]).default("RS256"),
  /** The simulator's control API port, and the topology it plays (server/cluster/sim/topology-file.ts). */
  KULE_SIM_PORT: z.coerce.number().int().min(1).max(65535).default(7400),
  KULE_SIM_URL: z.url().default("http://127.0.0.1:7400"),
  KULE_SIM_TOPOLOGY: z.string().default("reference"),
  /** Set: the simulator also serves a Kubernetes API (Kule's stand-in) on this port, whose nodes it plays, and writes its kubeconfig to KULE_SIM_KUBECONFIG. */
  KULE_SIM_KUBERNETES_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  KULE_SIM_KUBECONFIG: z.string().optional(),
  /** The cluster Kule runs replicas on: the simulator (over its control API) or a Kubernetes API server. */
  KULE_CLUSTER_DRIVER: z.enum(["sim", "kubernetes"]).default("sim"),
  /** Kubernetes: a kubeconfig file and context (unset: the in-cluster service account in a pod, else ~/.kube/config). */
  KULE_KUBECONFIG: z.string().optional(),
  KULE_KUBE_CONTEXT: z.string().optional(),
  /** Set by Kubernetes in every pod: Kule is running inside the cluster. */
  KUBERNETES_SERVICE_HOST: z.string().optional(),
  /** The namespace Kule owns for replicas' workloads, and the node label naming a node's pool. */
  KULE_KUBE_NAMESPACE: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).default("kule-replicas"),
  KULE_KUBE_POOL_LABEL: z.string().default("kule.io/node-pool"),
  /** Replicas as Deployments (+ Services), or as KServe InferenceServices (raw deployment mode). */
  KULE_KUBE_WORKLOAD: z.enum(["deployment", "inferenceservice"]).default("deployment"),
  /** The mig-parted ConfigMap (namespace/name) Kule writes layouts into; point the GPU Operator's ClusterPolicy at it. */
  KULE_KUBE_MIG_CONFIGMAP: z.string().regex(/^[a-z0-9-]+\/[a-z0-9.-]+$/).default("gpu-operator/kule-mig-parted-config"),
  /** The name Kule records the cluster under; unset: the kubeconfig context's name. */
  KULE_KUBE_CLUSTER_NAME: z.string().optional(),
  /** How fast simulated replicas load weights (bytes/s): 8 GB at 4 GB/s is a 2 s cold start. */
  KULE_SIM_STORAGE_BANDWIDTH: z.coerce.number().positive().default(4e9),
  /** Multiplies every simulated latency; 0 answers at once (benchmarks). */
  KULE_SIM_LATENCY_SCALE: z.coerce.number().min(0).max(100).default(1),
  /** Which exporter releases the simulator's metrics imitate: the newest or the oldest Kule supports (server/metrics/exporters/versions.ts)… */
  KULE_SIM_EXPORTERS: z.enum(Object.keys(EXPORTER_PROFILES) as [ExporterProfile, ...ExporterProfile[]]).default("newest"),
  /** …with one exporter's release set apart. */
  KULE_SIM_VLLM_VERSION: z.enum(VLLM_VERSIONS).optional(),
  KULE_SIM_DCGM_EXPORTER_VERSION: z.enum(DCGM_EXPORTER_VERSIONS).optional(),
  /** Prometheus Kule reads charts from; unset = metrics are off (the pages say how to turn them on). */
  KULE_PROMETHEUS_URL: z.url().optional(),
  KULE_PROMETHEUS_PORT: z.coerce.number().int().min(1).max(65535).default(9090),
  /** Where Kule writes the rules it generates (SLO burn-rate alerts) for that Prometheus to load; unset = not written. */
  KULE_PROMETHEUS_RULES_DIR: z.string().optional(),
  /** Bearer token Prometheus presents to /api/prometheus/sd; unset: generated once under KULE_DATA_DIR. */
  KULE_PROMETHEUS_SD_TOKEN: z.string().min(16).optional(),
  /** Alertmanager Kule routes its alerts through; unset = alerts stay badges on the pages. Set by the demo. */
  KULE_ALERTMANAGER_URL: z.url().optional(),
  KULE_ALERTMANAGER_PORT: z.coerce.number().int().min(1).max(65535).default(9093),
  /** Where Kule writes the alertmanager.yml it renders from its receivers (checked by amtool, then reloaded); unset = not written. */
  KULE_ALERTMANAGER_CONFIG_FILE: z.string().optional(),
  /** The webhook Alertmanager delivers alerts to; unset: this app's /api/alerts/webhook on 127.0.0.1:PORT. */
  KULE_ALERT_WEBHOOK_URL: z.url().optional(),
  /** amtool, which checks every alertmanager.yml Kule renders before Alertmanager reloads it. */
  KULE_AMTOOL_BIN: z.string().default("amtool"),
  /** Bearer token Alertmanager presents to /api/alerts/webhook; unset: generated once under KULE_DATA_DIR. */
  KULE_ALERT_WEBHOOK_TOKEN: z.string().min(16).optional(),
  /** The inference gateway. Each gateway process needs its own spool directory. */
  KULE_GATEWAY_PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /** The address the gateway's API (HTTP and gRPC) listens on: loopback on a workstation, 0.0.0.0 in a pod so its containerPort reaches it. */
  KULE_GATEWAY_HOST: z.string().default("127.0.0.1"),
  /** Set: the gateway also serves the Open Inference Protocol (KServe v2) over gRPC on this port; unset: HTTP only. */
  KULE_GATEWAY_GRPC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  KULE_GATEWAY_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  KULE_GATEWAY_SPOOL_DIR: z.string().optional(),
  /** OpenTelemetry: the OTLP/HTTP endpoint traces and metrics go to (standard names; a signal's own one wins); unset = off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: z.url().optional(),
  /** How OTLP is encoded over HTTP: protobuf (OpenTelemetry's default: smaller, and cheaper to encode) or JSON. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(["http/protobuf", "http/json"], { message: "must be http/protobuf or http/json (grpc is not supported)" }).default("http/protobuf"),
  /** Milliseconds between OTLP metric exports (OpenTelemetry's standard variable and default). */
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).default(60_000),
  /** Spans per OTLP export and the longest a finished span waits for one (OpenTelemetry's standard variables; OTEL_BSP_MAX_QUEUE_SIZE is fixed at 8192). */
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(8192).default(512),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).default(1000),
  /** The traces' service.name; unset: kule-gateway for the gateway, kule-app for the app. */
  OTEL_SERVICE_NAME: z.string().optional(),
  /** Share of calls traced when the caller sent no sampling decision (a caller's `traceparent` decides for its calls). */
  KULE_OTEL_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
  /** A trace viewer's URL with `{traceId}` in it (Jaeger: http://jaeger:16686/trace/{traceId}): the call-log explorer links each call's trace. */
  KULE_TRACE_UI_URL: z.string().includes("{traceId}", { message: "must contain {traceId}" }).optional(),
  /** Gateway processes sharing the port; default 1 without REDIS_URL, one per core with it (server/gateway/workers.ts). */
  KULE_GATEWAY_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * With several workers, a worker whose event loop is busy less than this share of the time takes
   * every new connection before the next worker does (server/gateway/placement.ts); 0 spreads them evenly.
   */
  KULE_GATEWAY_PACK_BELOW: z.coerce.number().min(0).max(1).default(0.5),
  /** The gateway's admin listener (/metrics, /sd): its port (default: the gateway's + 1000) and address. */
  KULE_GATEWAY_ADMIN_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  KULE_GATEWAY_ADMIN_HOST: z.string().default("127.0.0.1"),
  /** Required when the admin listener is off loopback: Prometheus sends it as a bearer token. */
  KULE_METRICS_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  /** Proxies whose X-Forwarded-For the gateway and the app believe: comma-separated CIDRs; none by default. */
  KULE_TRUSTED_PROXIES: cidrList,
  /**
   * Private ranges Kule may call at URLs an operator enters (external replicas, alert receivers, the
   * identity provider): comma-separated CIDRs, e.g. 10.0.0.0/8 for a site's vLLM servers. Unset:
   * loopback and private networks are refused (server/http/outbound.ts); cloud metadata always is.
   */
  KULE_OUTBOUND_ALLOW: cidrList,
  /** Set by the gateway's primary on each worker it forks: the worker's slot, which names its spool. */
  KULE_GATEWAY_WORKER_SLOT: z.coerce.number().int().min(0).optional(),
  /** Set: rate limits are shared by every gateway through Redis; unset: each gateway limits on its own. */
  REDIS_URL: z.string().optional(),
  /** The Ed25519 key that signs sealed chain heads (PKCS#8 PEM); unset: generated once as KULE_DATA_DIR/seal-signing-key.pem. */
  KULE_SEAL_KEY_FILE: z.string().optional(),
  /** Key of the HMAC that stores a call's `user` identifier; unset: generated once under KULE_DATA_DIR. */
  KULE_SUBJECT_HASH_KEY: z.string().min(16).optional(),
  /** Versioned keys of the call log's subject hashes and client IPs, newest first: "v2:<base64>,v1:<base64>" (server/call-log/keys). */
  KULE_SUBJECT_HASH_KEYS: z.string().optional(),
  /** The same for special categories of personal data (KVKK Art. 6), kept apart: "s2:<base64>,s1:<base64>". */
  KULE_SPECIAL_SUBJECT_HASH_KEYS: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const env = load();

/** The environment for a child process: this one's, with `overrides` applied (undefined removes a variable). */
export function childEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
