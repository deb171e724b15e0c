/**
 * The resources this stand-in serves, described the way the API server's discovery documents
 * describe them. Routing, discovery and the store all read this one table, so a kind added here
 * is served everywhere at once.
 */
export interface ResourceKind {
  /** "" for the core group. */
  group: string;
  version: string;
  kind: string;
  /** The URL segment, e.g. "pods". */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  /** Subresources served besides the object itself, e.g. "status", "binding". */
  subresources: string[];
  /** Whether metadata.generation counts changes to the desired state (Deployments, CRs). */
  hasGeneration: boolean;
  /** Custom resources accept no strategic merge patch (the real server answers 415). */
  custom: boolean;
}

export const KINDS: readonly ResourceKind[] = [
  core("Namespace", "namespaces", false, { shortNames: ["ns"], subresources: ["status"] }),
  core("Node", "nodes", false, { shortNames: ["no"], subresources: ["status"] }),
  core("Pod", "pods", true, { shortNames: ["po"], subresources: ["status", "binding", "eviction"] }),
  core("Service", "services", true, { shortNames: ["svc"], subresources: ["status"] }),
  core("ConfigMap", "configmaps", true, { shortNames: ["cm"] }),
  core("Secret", "secrets", true),
  core("Event", "events", true, { shortNames: ["ev"] }),
  {
    group: "apps", version: "v1", kind: "Deployment", plural: "deployments", singular: "deployment", namespaced: true,
    shortNames: ["deploy"], subresources: ["status"], hasGeneration: true, custom: false,
  },
  {
    group: "apps", version: "v1", kind: "ReplicaSet", plural: "replicasets", singular: "replicaset", namespaced: true,
    shortNames: ["rs"], subresources: ["status"], hasGeneration: true, custom: false,
  },
  {
    group: "serving.kserve.io", version: "v1beta1", kind: "InferenceService", plural: "inferenceservices", singular: "inferenceservice",
    namespaced: true, shortNames: ["isvc"], subresources: ["status"], hasGeneration: true, custom: true,
  },
  {
    group: "leaderworkerset.x-k8s.io", version: "v1", kind: "LeaderWorkerSet", plural: "leaderworkersets", singular: "leaderworkerset",
    namespaced: true, shortNames: ["lws"], subresources: ["status"], hasGeneration: true, custom: true,
  },
];

function core(kind: string, plural: string, namespaced: boolean, extra: { shortNames?: string[]; subresources?: string[] } = {}): ResourceKind {
  return {
    group: "", version: "v1", kind, plural, singular: kind.toLowerCase(), namespaced,
    shortNames: extra.shortNames, subresources: extra.subresources ?? [], hasGeneration: false, custom: false,
  };
}

export function apiVersionOf(k: ResourceKind): string {
  return k.group ? `${k.group}/${k.version}` : k.version;
}

export function kindByName(kind: string): ResourceKind {
  const k = KINDS.find((x) => x.kind === kind);
  if (!k) throw new Error(`The stand-in serves no kind ${kind}`);
  return k;
}

export function kindByPath(group: string, version: string, plural: string): ResourceKind | undefined {
  return KINDS.find((k) => k.group === group && k.version === version && k.plural === plural);
}

/** The resource name errors use, e.g. `pods` or `deployments.apps`, as in `pods "x" not found`. */
export function qualifiedResource(k: ResourceKind): string {
  return k.group ? `${k.plural}.${k.group}` : k.plural;
}
