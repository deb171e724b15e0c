import { isDeepStrictEqual } from "node:util";
import { cause, type StatusCause } from "./status-error.ts";
import { parseQuantity, QUANTITY_PATTERN } from "../quantity.ts";
import { matchesLabels, selectorFromObject, type SelectorObject } from "./selectors.ts";
import { isRecord, type KubeObject } from "./kube-object.ts";

/**
 * The checks the API server makes in Go beyond the OpenAPI schema (names, required images,
 * resource limits, selectors, immutable fields), with its messages. Only the ones a driver is
 * likely to trip over are here.
 */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

const MSG = {
  subdomain: `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  label: `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  dns1035: `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  labelValue: `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
};

type NameRule = "subdomain" | "label" | "dns1035";
/** Services, InferenceServices (KServe's webhook) and LeaderWorkerSets (their headless Service) need DNS-1035 names; Namespaces a label. */
const NAME_RULE: Record<string, NameRule> = { Namespace: "label", Service: "dns1035", InferenceService: "dns1035", LeaderWorkerSet: "dns1035" };

export function nameErrors(kind: string, name: string | undefined): StatusCause[] {
  if (!name) return [cause.required("metadata.name", "name or generateName is required")];
  const rule = NAME_RULE[kind] ?? "subdomain";
  const max = rule === "subdomain" ? 253 : 63;
  const re = rule === "subdomain" ? DNS1123_SUBDOMAIN : rule === "label" ? DNS1123_LABEL : DNS1035_LABEL;
  const errs: StatusCause[] = [];
  if (name.length > max) errs.push(cause.invalid("metadata.name", name, `must be no more than ${max} characters`));
  if (!re.test(name)) errs.push(cause.invalid("metadata.name", name, MSG[rule]));
  return errs;
}

export function labelErrors(labels: Record<string, string> | undefined, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (!QUALIFIED_NAME.test(k) || k.split("/").at(-1)!.length > 63) {
      errs.push(cause.invalid(path, k, "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"));
    }
    if (typeof v === "string" && (v.length > 63 || !LABEL_VALUE.test(v))) errs.push(cause.invalid(path, v, v.length > 63 ? "must be no more than 63 characters" : MSG.labelValue));
  }
  return errs;
}

interface ContainerLike {
  name?: string;
  image?: string;
  resources?: { limits?: Record<string, string | number>; requests?: Record<string, string | number> };
}

/** Resources the kubelet may overcommit; every other (extended) resource must request what it limits. */
const OVERCOMMITTABLE = new Set(["cpu", "memory", "ephemeral-storage"]);

function resourceErrors(c: ContainerLike, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  const { limits = {}, requests = {} } = c.resources ?? {};
  for (const [which, list] of [["limits", limits], ["requests", requests]] as const) {
    for (const [name, q] of Object.entries(list)) {
      const p = `${path}.resources.${which}[${name}]`;
      const n = parseQuantity(q);
      if (typeof q === "string" && !QUANTITY_PATTERN.test(q)) errs.push(cause.invalid(p, q, `quantities must match the regular expression '${QUANTITY_PATTERN.source}'`));
      else if (n < 0) errs.push(cause.invalid(p, String(q), "must be greater than or equal to 0"));
      else if (!OVERCOMMITTABLE.has(name) && !Number.isInteger(n)) errs.push(cause.invalid(p, String(q), "must be an integer"));
    }
  }
  for (const [name, q] of Object.entries(requests)) {
    const limit = limits[name];
    if (!OVERCOMMITTABLE.has(name)) {
      if (limit === undefined) errs.push(cause.required(`${path}.resources.limits`, "Limit must be set for non overcommitable resources"));
      else if (parseQuantity(q) !== parseQuantity(limit)) errs.push(cause.invalid(`${path}.resources.requests[${name}]`, String(q), `must be equal to ${name} limit of ${limit}`));
    } else if (limit !== undefined && parseQuantity(q) > parseQuantity(limit)) {
      errs.push(cause.invalid(`${path}.resources.requests[${name}]`, String(q), `must be less than or equal to ${name} limit of ${limit}`));
    }
  }
  return errs;
}

export function podSpecErrors(spec: unknown, path: string): StatusCause[] {
  if (!isRecord(spec)) return [cause.required(path)];
  const containers = (spec.containers ?? []) as ContainerLike[];
  if (containers.length === 0) return [cause.required(`${path}.containers`)];
  const errs: StatusCause[] = [];
  const seen = new Set<string>();
  containers.forEach((c, i) => {
    const p = `${path}.containers[${i}]`;
    if (!c.name) errs.push(cause.required(`${p}.name`));
    else if (!DNS1123_LABEL.test(c.name)) errs.push(cause.invalid(`${p}.name`, c.name, MSG.label));
    else if (seen.has(c.name)) errs.push({ reason: "FieldValueDuplicate", message: `Duplicate value: "${c.name}"`, field: `${p}.name` });
    if (c.name) seen.add(c.name);
    if (!c.image) errs.push(cause.required(`${p}.image`));
    errs.push(...resourceErrors(c, p));
  });
  return errs;
}

function workloadErrors(obj: KubeObject, kind: string): StatusCause[] {
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: SelectorObject; template?: { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> } };
  const errs: StatusCause[] = [];
  if (typeof spec.replicas === "number" && spec.replicas < 0) errs.push(cause.invalid("spec.replicas", spec.replicas, "must be greater than or equal to 0"));
  const selector = selectorFromObject(spec.selector);
  if (!spec.selector) errs.push(cause.required("spec.selector"));
  else if (selector.length === 0) errs.push(cause.invalid("spec.selector", spec.selector, `empty selector is invalid for ${kind === "Deployment" ? "deployment" : "replicaset"}`));
  const labels = spec.template?.metadata?.labels;
  if (spec.selector && selector.length > 0 && !matchesLabels(selector, labels)) {
    errs.push(cause.invalid("spec.template.metadata.labels", labels ?? {}, "`selector` does not match template `labels`"));
  }
  errs.push(...labelErrors(labels, "spec.template.metadata.labels"));
  errs.push(...podSpecErrors(spec.template?.spec, "spec.template.spec"));
  const restart = spec.template?.spec?.restartPolicy;
  if (restart !== undefined && restart !== "Always") errs.push(cause.notSupported("spec.template.spec.restartPolicy", restart, ["Always"]));
  return errs;
}

/** Checks on a new or updated object that its schema cannot express. */
export function semanticErrors(obj: KubeObject): StatusCause[] {
  const errs = [...nameErrors(obj.kind, obj.metadata.name), ...labelErrors(obj.metadata.labels, "metadata.labels")];
  if (obj.kind === "Pod") errs.push(...podSpecErrors(obj.spec, "spec"));
  if (obj.kind === "Deployment" || obj.kind === "ReplicaSet") errs.push(...workloadErrors(obj, obj.kind));
  if (obj.kind === "Service") {
    const spec = (obj.spec ?? {}) as { type?: string; ports?: { port?: number }[] };
    if ((spec.type ?? "ClusterIP") !== "ExternalName" && !(spec.ports ?? []).length) errs.push(cause.required("spec.ports"));
  }
  return errs;
}

const POD_MUTABLE_MESSAGE =
  "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/**
 * While a pod has scheduling gates (KEP-3838, GA in 1.30), its scheduling constraints may be
 * tightened: gates only removed, nodeSelector entries only added. Null when the update keeps to that.
 */
function gatedPodUpdateErrors(obj: KubeObject, old: KubeObject): StatusCause[] | null {
  type Spec = { schedulingGates?: { name: string }[]; nodeSelector?: Record<string, string> } | undefined;
  const [now, was] = [obj.spec as Spec, old.spec as Spec];
  if (!(was?.schedulingGates ?? []).length) return null;
  const added = (now?.schedulingGates ?? []).find((g) => !(was?.schedulingGates ?? []).some((o) => o.name === g.name));
  if (added) return [cause.forbidden("spec.schedulingGates", `only deletion is allowed, but found new scheduling gate '${added.name}'`)];
  const changed = Object.entries(was?.nodeSelector ?? {}).find(([k, v]) => now?.nodeSelector?.[k] !== v);
  if (changed) return [cause.invalid("spec.nodeSelector", now?.nodeSelector ?? null, "only additions to spec.nodeSelector are allowed (no mutations or deletions)")];
  return null;
}

/** Fields that may not change once set: a Pod's spec (bar images and a few more), workload selectors. */
export function updateErrors(obj: KubeObject, old: KubeObject): StatusCause[] {
  if (obj.kind === "Pod") {
    const gated = gatedPodUpdateErrors(obj, old);
    if (gated) return gated;
    const wasGated = ((old.spec as { schedulingGates?: unknown[] } | undefined)?.schedulingGates ?? []).length > 0;
    const strip = (s: unknown) => {
      const spec = structuredClone((s ?? {}) as Record<string, unknown>);
      for (const list of ["containers", "initContainers"]) for (const c of (spec[list] ?? []) as ContainerLike[]) delete c.image;
      delete spec.activeDeadlineSeconds;
      delete spec.tolerations;
      delete spec.terminationGracePeriodSeconds;
      if (wasGated) {
        delete spec.schedulingGates;
        delete spec.nodeSelector;
      }
      return spec;
    };
    if (!isDeepStrictEqual(strip(obj.spec), strip(old.spec))) return [cause.forbidden("spec", POD_MUTABLE_MESSAGE)];
  }
  if (obj.kind === "Deployment" || obj.kind === "ReplicaSet") {
    const sel = (o: KubeObject) => (o.spec as { selector?: unknown } | undefined)?.selector;
    if (!isDeepStrictEqual(sel(obj), sel(old))) return [cause.invalid("spec.selector", sel(obj), "field is immutable")];
  }
  return [];
}
