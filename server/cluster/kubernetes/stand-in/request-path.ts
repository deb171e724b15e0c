import { kindByPath, type ResourceKind } from "./resource-kinds.ts";

export interface ResourcePath {
  kind: ResourceKind;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/**
 * Splits a resource URL the way the API server routes it:
 * `/api/v1/namespaces/<ns>/<plural>/<name>/<sub>` for namespaced kinds, `/api/v1/<plural>/<name>`
 * for cluster-scoped ones and for lists across namespaces, and `/apis/<group>/<version>/…` for
 * named groups. `/api/v1/namespaces/<name>` is the Namespace itself.
 */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  const segs = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (segs[0] === "api" && segs[1] === "v1") {
    group = "";
    rest = segs.slice(2);
  } else if (segs[0] === "apis" && segs.length >= 3) {
    group = segs[1]!;
    rest = segs.slice(3);
  } else {
    return undefined;
  }
  const version = segs[0] === "api" ? "v1" : segs[2]!;
  if (rest[0] === "namespaces" && rest.length >= 3) {
    const kind = kindByPath(group, version, rest[2]!);
    if (kind?.namespaced) return withName(kind, rest[1], rest.slice(3));
    if (group === "" && rest.length === 3) {
      const ns = kindByPath("", "v1", "namespaces")!;
      return { kind: ns, name: rest[1], subresource: rest[2] };
    }
    return undefined;
  }
  if (rest.length === 0) return undefined;
  const kind = kindByPath(group, version, rest[0]!);
  if (!kind) return undefined;
  if (kind.namespaced && rest.length > 1) return undefined;
  return withName(kind, undefined, rest.slice(1));
}

function withName(kind: ResourceKind, namespace: string | undefined, rest: string[]): ResourcePath | undefined {
  if (rest.length > 2) return undefined;
  const [name, subresource] = rest;
  if (subresource && !kind.subresources.includes(subresource)) return undefined;
  return { kind, namespace, name, subresource };
}
