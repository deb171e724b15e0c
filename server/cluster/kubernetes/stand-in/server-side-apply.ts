import { isDeepStrictEqual } from "node:util";
import { ApiError } from "./status-error.ts";
import { mergeKeyFor, strategicMergePatch } from "./merge-patch.ts";
import { isRecord, now, omit, type KubeObject, type ManagedFieldsEntry } from "./kube-object.ts";

/** A FieldsV1 set: `f:<field>` for map fields, `k:<json key>` for keyed list items, `v:<json>` for set items, `.` for the item itself. */
export type FieldSet = { [path: string]: FieldSet };

/** Fields the API server never records in managedFields. */
const UNTRACKED_METADATA = new Set(["name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"]);

export function fieldSetOf(value: unknown, field = "", top = true): FieldSet {
  if (Array.isArray(value)) {
    if (field === "finalizers") return Object.fromEntries(value.map((v) => [`v:${JSON.stringify(v)}`, {}]));
    const key = mergeKeyFor(field, value);
    if (!key) return {};
    return Object.fromEntries(value.filter(isRecord).map((item) => [`k:${JSON.stringify({ [key]: item[key] })}`, { ".": {}, ...fieldSetOf(item, "", false) }]));
  }
  if (!isRecord(value)) return {};
  const out: FieldSet = {};
  for (const [k, v] of Object.entries(value)) {
    if (top && (k === "apiVersion" || k === "kind" || k === "status")) continue;
    if (top && k === "metadata") {
      const meta = Object.fromEntries(Object.entries(v as object).filter(([mk]) => !UNTRACKED_METADATA.has(mk)));
      if (Object.keys(meta).length) out["f:metadata"] = fieldSetOf(meta, "metadata", false);
      continue;
    }
    out[`f:${k}`] = fieldSetOf(v, k, false);
  }
  return out;
}

/** The value at one step of a field set path, or undefined. */
function step(container: unknown, seg: string): unknown {
  if (seg.startsWith("f:")) return isRecord(container) ? container[seg.slice(2)] : undefined;
  if (!Array.isArray(container)) return undefined;
  if (seg.startsWith("k:")) {
    const key = JSON.parse(seg.slice(2)) as Record<string, unknown>;
    return container.find((i) => isRecord(i) && Object.entries(key).every(([k, v]) => i[k] === v));
  }
  if (seg.startsWith("v:")) return container.find((i) => isDeepStrictEqual(i, JSON.parse(seg.slice(2))));
  return undefined;
}

function removeStep(container: unknown, seg: string): void {
  if (seg.startsWith("f:") && isRecord(container)) delete container[seg.slice(2)];
  else if (Array.isArray(container)) {
    const target = step(container, seg);
    const i = container.indexOf(target);
    if (i >= 0) container.splice(i, 1);
  }
}

/** Removes what `previous` owned and `next` no longer applies, unless another manager owns it too. */
function pruneDropped(obj: unknown, previous: FieldSet, next: FieldSet | undefined, others: FieldSet[]): void {
  for (const [seg, child] of Object.entries(previous)) {
    if (seg === ".") continue;
    const nextChild = next?.[seg];
    const otherChildren = others.map((o) => o[seg]).filter((o): o is FieldSet => o !== undefined);
    if (nextChild === undefined && otherChildren.length === 0) removeStep(obj, seg);
    else if (Object.keys(child).length) pruneDropped(step(obj, seg), child, nextChild, otherChildren);
  }
}

/** Leaf paths of a field set, for conflict detection, e.g. [["f:spec","f:replicas"]]. */
function leaves(set: FieldSet, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const [seg, child] of Object.entries(set)) {
    if (seg === ".") continue;
    const keys = Object.keys(child).filter((k) => k !== ".");
    if (keys.length === 0) out.push([...prefix, seg]);
    else out.push(...leaves(child, [...prefix, seg]));
  }
  return out;
}

function valueAt(obj: unknown, path: string[]): unknown {
  return path.reduce<unknown>((cur, seg) => step(cur, seg), obj);
}

function has(set: FieldSet, path: string[]): boolean {
  let cur: FieldSet | undefined = set;
  for (const seg of path) cur = cur?.[seg];
  return cur !== undefined;
}

function without(set: FieldSet, path: string[]): FieldSet {
  const copy = structuredClone(set);
  let cur: FieldSet | undefined = copy;
  for (const seg of path.slice(0, -1)) cur = cur?.[seg];
  if (cur) delete cur[path.at(-1)!];
  return copy;
}

function dotted(path: string[]): string {
  return path.map((s) => (s.startsWith("f:") ? `.${s.slice(2)}` : `[${s.slice(2)}]`)).join("");
}

/**
 * Server-side apply of `applied` by `manager` onto `current` (undefined when creating). Fields
 * this manager applied before and now omits are removed; a field another applier owns with a
 * different value is a 409 conflict unless `force`, which takes it over.
 */
export function serverSideApply(current: KubeObject | undefined, applied: KubeObject, manager: string, force: boolean): KubeObject {
  const next = fieldSetOf(applied);
  const entries = current?.metadata.managedFields ?? [];
  const mine = entries.find((e) => e.manager === manager && e.operation === "Apply" && !e.subresource);
  let others = entries.filter((e) => e !== mine);
  if (current) {
    const conflicts: { manager: string; apiVersion: string; path: string[] }[] = [];
    for (const path of leaves(next)) {
      // An applied empty map owns the field, not the keys others put in it.
      if (isRecord(valueAt(applied, path))) continue;
      if (isDeepStrictEqual(valueAt(current, path), valueAt(applied, path))) continue;
      for (const o of others) if (has(o.fieldsV1 as FieldSet, path)) conflicts.push({ manager: o.manager, apiVersion: o.apiVersion, path });
    }
    if (conflicts.length && !force) throw conflictError(conflicts);
    others = others.map((o) => conflicts.filter((c) => c.manager === o.manager).reduce((e, c) => ({ ...e, fieldsV1: without(e.fieldsV1 as FieldSet, c.path) }), o));
  }
  const base = structuredClone(current ?? { apiVersion: applied.apiVersion, kind: applied.kind, metadata: {} });
  if (mine) pruneDropped(base, mine.fieldsV1 as FieldSet, next, others.map((o) => o.fieldsV1 as FieldSet));
  const merged = strategicMergePatch(base, { ...omit(applied, ["status"]), metadata: { ...applied.metadata, managedFields: undefined } }) as KubeObject;
  delete merged.metadata.managedFields;
  const unchanged = mine && isDeepStrictEqual(mine.fieldsV1, next);
  const entry: ManagedFieldsEntry = unchanged
    ? mine
    : { manager, operation: "Apply", apiVersion: applied.apiVersion, time: now(), fieldsType: "FieldsV1", fieldsV1: next };
  merged.metadata.managedFields = [...others.filter((o) => Object.keys(o.fieldsV1).length > 0), entry];
  return merged;
}

function conflictError(conflicts: { manager: string; apiVersion: string; path: string[] }[]): ApiError {
  const described = conflicts.map((c) => `conflict with "${c.manager}" using ${c.apiVersion}: ${dotted(c.path)}`);
  return new ApiError({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: `Apply failed with ${conflicts.length} conflict${conflicts.length > 1 ? "s" : ""}: ${described.join("\n")}`,
    reason: "Conflict",
    details: { causes: conflicts.map((c) => ({ reason: "FieldManagerConflict", message: `conflict with "${c.manager}" using ${c.apiVersion}`, field: dotted(c.path) })) },
    code: 409,
  });
}
