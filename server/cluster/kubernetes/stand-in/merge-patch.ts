import { isRecord, omit } from "./kube-object.ts";

/** RFC 7386 JSON merge patch: objects merge, null deletes, everything else (lists too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * Lists the Kubernetes types merge by a key under strategic merge patch (their `patchMergeKey`
 * tags) instead of replacing. Keyed by field name, which is unambiguous for the kinds served
 * here except `ports`: containers' ports merge by containerPort, a Service's by port.
 */
const MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  ephemeralContainers: "name",
  env: "name",
  volumes: "name",
  volumeMounts: "mountPath",
  volumeDevices: "devicePath",
  imagePullSecrets: "name",
  conditions: "type",
  addresses: "type",
  taints: "key",
  ownerReferences: "uid",
  hostAliases: "ip",
  ports: "containerPort",
};

/** Lists of scalars that SMP merges as sets. */
const SET_LISTS = new Set(["finalizers"]);

export function mergeKeyFor(field: string, items: unknown[]): string | undefined {
  if (field === "ports" && items.some((i) => isRecord(i) && i.port !== undefined && i.containerPort === undefined)) return "port";
  return MERGE_KEYS[field];
}

/**
 * Strategic merge patch as kubectl and controllers use it: like a merge patch, except keyed lists
 * merge item by item, `$patch: delete` removes an item, `$patch: replace` replaces a map or list.
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return structuredClone(patch);
  if (patch.$patch === "replace") {
    return structuredClone(omit(patch, ["$patch"]));
  }
  if (patch.$patch === "delete") return undefined;
  const out: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith("$setElementOrder/") || k === "$retainKeys") continue;
    if (v === null) {
      delete out[k];
    } else if (Array.isArray(v)) {
      const merged = mergeList(k, out[k], v);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else {
      const merged = strategicMergePatch(out[k], v);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    }
  }
  return out;
}

function mergeList(field: string, current: unknown, patch: unknown[]): unknown[] | undefined {
  const base = Array.isArray(current) ? current : [];
  if (patch.some((p) => isRecord(p) && p.$patch === "replace")) return patch.filter((p) => !(isRecord(p) && p.$patch === "replace")).map((p) => structuredClone(p));
  if (SET_LISTS.has(field)) return [...new Set([...base, ...patch])];
  const key = mergeKeyFor(field, [...base, ...patch]);
  if (!key) return structuredClone(patch);
  const out = base.map((x) => structuredClone(x) as unknown);
  for (const item of patch) {
    if (!isRecord(item)) continue;
    const idx = out.findIndex((x) => isRecord(x) && x[key] === item[key]);
    if (item.$patch === "delete") {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) {
      out[idx] = strategicMergePatch(out[idx], item);
    } else {
      out.push(strategicMergePatch(undefined, item));
    }
  }
  return out;
}
