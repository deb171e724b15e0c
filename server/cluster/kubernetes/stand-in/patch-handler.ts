import yaml from "js-yaml";
import { errors } from "./status-error.ts";
import { jsonPatch } from "./json-patch.ts";
import { mergePatch, strategicMergePatch } from "./merge-patch.ts";
import { serverSideApply } from "./server-side-apply.ts";
import { clone, isRecord, type KubeObject } from "./kube-object.ts";
import type { ResourceKind } from "./resource-kinds.ts";
import type { Registry } from "./registry.ts";

export const PATCH_TYPES = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
} as const;

export interface PatchOptions {
  fieldManager?: string;
  force?: boolean;
  dryRun?: boolean;
  subresource?: "status";
}

/** Patch types a kind accepts, in the order the real server lists them in its 415 message. */
function acceptedTypes(kind: ResourceKind): string[] {
  return kind.custom ? [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.apply] : [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.strategic, PATCH_TYPES.apply];
}

/**
 * PATCH in all four forms. Each form turns the current object into a new one, which then goes
 * through the same update path as a PUT (so a patch carrying a stale resourceVersion conflicts).
 * Only apply may create: the other forms answer 404 for a missing object.
 */
export function patchObject(
  registry: Registry,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  contentType: string,
  body: string,
  opts: PatchOptions,
): { object: KubeObject; created: boolean } {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (!acceptedTypes(kind).includes(type)) throw errors.unsupportedMediaType(acceptedTypes(kind));
  checkOptions(type, opts);
  const patch = decode(type, body);
  const current = registry.store.get(kind, kind.namespaced ? namespace : undefined, name);
  if (type === PATCH_TYPES.apply) return apply(registry, kind, namespace, name, current, patch, opts);
  if (!current) throw errors.notFound(kind, name);
  let patched: unknown;
  if (type === PATCH_TYPES.json) patched = jsonPatch(current, patch);
  else if (type === PATCH_TYPES.merge) patched = mergePatch(current, patch);
  else patched = strategicMergePatch(current, patch);
  if (!isRecord(patched)) throw errors.badRequest("the patch produced no object");
  return { object: registry.update(kind, namespace, name, patched, { dryRun: opts.dryRun, subresource: opts.subresource }), created: false };
}

function apply(
  registry: Registry,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  current: KubeObject | undefined,
  patch: unknown,
  opts: PatchOptions,
): { object: KubeObject; created: boolean } {
  if (!isRecord(patch) || !isRecord(patch.metadata)) throw errors.badRequest("error decoding YAML: the applied configuration has no metadata");
  const applied = patch as KubeObject;
  if (applied.kind !== kind.kind) throw errors.badRequest(`invalid object type: /, Kind=${String(applied.kind ?? "")}`);
  if (applied.metadata.name && applied.metadata.name !== name) {
    throw errors.badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`);
  }
  const merged = serverSideApply(current, { ...applied, metadata: { ...applied.metadata, name } }, opts.fieldManager!, opts.force ?? false);
  if (!current) {
    delete merged.metadata.resourceVersion;
    return { object: registry.create(kind, namespace, merged, { dryRun: opts.dryRun }), created: true };
  }
  if (opts.subresource === "status") return { object: registry.update(kind, namespace, name, merged, { dryRun: opts.dryRun, subresource: "status" }), created: false };
  // Apply never replaces status: keep the stored one whatever the applied configuration says.
  const next = { ...merged, status: clone(current.status) };
  if (next.status === undefined) delete next.status;
  next.metadata.resourceVersion = applied.metadata.resourceVersion ?? current.metadata.resourceVersion;
  return { object: registry.update(kind, namespace, name, next, { dryRun: opts.dryRun }), created: false };
}

function checkOptions(type: string, opts: PatchOptions): void {
  const invalid = (field: string, reason: string, message: string) =>
    errors.invalid("PatchOptions.meta.k8s.io", "", "meta.k8s.io", "PatchOptions", [{ reason, message, field }]);
  if (type === PATCH_TYPES.apply && !opts.fieldManager) throw invalid("fieldManager", "FieldValueRequired", "Required value: is required for apply patch");
  if (type !== PATCH_TYPES.apply && opts.force !== undefined) throw invalid("force", "FieldValueForbidden", "Forbidden: may not be specified for non-apply patch");
}

function decode(type: string, body: string): unknown {
  try {
    // Apply bodies are YAML, of which JSON (what client-node sends) is a subset.
    return type === PATCH_TYPES.apply ? yaml.load(body) : JSON.parse(body);
  } catch (e) {
    throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
}
