import { apiVersionOf, KINDS, type ResourceKind } from "./resource-kinds.ts";

/** The Kubernetes version this stand-in reports; client-node 1.4's API types match it. */
export const SERVER_VERSION = {
  major: "1",
  minor: "33",
  gitVersion: "v1.33.0",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2025-04-23T13:00:00Z",
  goVersion: "go1.24.2",
  compiler: "gc",
  platform: "linux/amd64",
};

const VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const SUBRESOURCE_VERBS: Record<string, string[]> = { status: ["get", "patch", "update"], binding: ["create"], eviction: ["create"] };
/** Subresources whose body is another kind (an Eviction is policy/v1). */
const SUBRESOURCE_KINDS: Record<string, Record<string, string>> = { binding: { kind: "Binding" }, eviction: { group: "policy", version: "v1", kind: "Eviction" } };

function resourceEntries(k: ResourceKind) {
  const main = {
    name: k.plural,
    singularName: k.singular,
    namespaced: k.namespaced,
    kind: k.kind,
    verbs: VERBS,
    ...(k.shortNames ? { shortNames: k.shortNames } : {}),
    ...(k.group === "apps" ? { categories: ["all"] } : {}),
  };
  const subs = k.subresources.map((s) => ({
    name: `${k.plural}/${s}`,
    singularName: "",
    namespaced: k.namespaced,
    ...(SUBRESOURCE_KINDS[s] ?? { kind: k.kind }),
    verbs: SUBRESOURCE_VERBS[s] ?? ["get"],
  }));
  return [main, ...subs];
}

/** Groups other than core, each with the one version served. */
function groups(): { name: string; version: string }[] {
  const seen = new Map<string, string>();
  for (const k of KINDS) if (k.group) seen.set(k.group, k.version);
  return [...seen].map(([name, version]) => ({ name, version }));
}

function groupDoc(g: { name: string; version: string }) {
  const gv = { groupVersion: `${g.name}/${g.version}`, version: g.version };
  return { name: g.name, versions: [gv], preferredVersion: gv };
}

/** Answers a discovery path, or undefined when the path is not a discovery document. */
export function discovery(pathname: string, serverAddress: string): unknown {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/version") return SERVER_VERSION;
  if (path === "/api") {
    return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] };
  }
  if (path === "/apis") return { kind: "APIGroupList", apiVersion: "v1", groups: groups().map(groupDoc) };
  const list = (gv: string) => ({
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: gv,
    resources: KINDS.filter((k) => apiVersionOf(k) === gv).flatMap(resourceEntries),
  });
  if (path === "/api/v1") return list("v1");
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  const g = m && groups().find((x) => x.name === m[1]);
  if (!m || !g) return undefined;
  if (!m[2]) return { kind: "APIGroup", apiVersion: "v1", ...groupDoc(g) };
  return m[2] === g.version ? list(`${g.name}/${g.version}`) : undefined;
}
