import { Ajv, type ErrorObject } from "ajv";
import { ConfigMap, Event, Namespace, Node, Pod, Secret, Service, Affinity, Container, EnvVar, PodTemplateSpec, Toleration } from "kubernetes-models/v1";
import { Deployment, ReplicaSet } from "kubernetes-models/apps/v1";
import { cause, type StatusCause } from "./status-error.ts";
import { inferenceServiceSchema } from "./inference-service-schema.ts";
import { leaderWorkerSetSchema } from "./leader-worker-set-schema.ts";
import type { KubeObject } from "./kube-object.ts";

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: never) => Validatable;

/** kubernetes-models' classes carry validators generated from the Kubernetes OpenAPI schemas. */
const BUILT_IN: Record<string, ModelClass> = { ConfigMap, Event, Namespace, Node, Pod, Secret, Service, Deployment, ReplicaSet };
const NESTED: Record<string, ModelClass> = { Affinity, Container, EnvVar, PodTemplateSpec, Toleration };

// Structural schemas put `pattern` beside `anyOf: [integer, string]` (int-or-string); ajv must allow it.
const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
ajv.addVocabulary(["x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string", "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type"]);
ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isSafeInteger(n) });
// Where the vendored CRD schema embeds a Kubernetes type, validate it with that type's real schema.
ajv.addKeyword({
  keyword: "x-kubernetes-models",
  errors: "full",
  validate: function check(type: string, data: unknown, _schema: unknown, ctx?: { instancePath: string }) {
    const errs = modelErrors(NESTED[type]!, data);
    (check as { errors?: ErrorObject[] }).errors = errs.map((e) => ({ ...e, instancePath: (ctx?.instancePath ?? "") + e.instancePath }));
    return errs.length === 0;
  },
});
/** The custom resources the stand-in serves, each by its vendored CRD schema. */
const CUSTOM = { InferenceService: ajv.compile(inferenceServiceSchema), LeaderWorkerSet: ajv.compile(leaderWorkerSetSchema) } as Record<string, ReturnType<typeof ajv.compile>>;

function modelErrors(cls: ModelClass, data: unknown): ErrorObject[] {
  try {
    new cls(data as never).validate();
    return [];
  } catch (e) {
    const errs = (e as { errors?: ErrorObject[] }).errors;
    if (!errs) throw e;
    return errs;
  }
}

/** Schema errors of `obj`, as the API server's field errors name them. */
export function schemaErrors(obj: KubeObject): StatusCause[] {
  let errs: ErrorObject[];
  const custom = CUSTOM[obj.kind];
  if (custom) errs = custom(obj) ? [] : (custom.errors ?? []);
  else errs = modelErrors(BUILT_IN[obj.kind]!, obj);
  return dedupe(errs.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf").map((e) => toCause(e, obj)));
}

function toCause(e: ErrorObject, obj: KubeObject): StatusCause {
  const base = fieldPath(e.instancePath);
  const value = valueAt(obj, e.instancePath);
  switch (e.keyword) {
    case "required": {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return cause.required(base ? `${base}.${missing}` : missing);
    }
    case "type": {
      const actual = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
      return cause.typeInvalid(base, actual, `${base} in body must be of type ${(e.params as { type: string }).type}: "${actual}"`);
    }
    case "enum":
      return cause.notSupported(base, value, ((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map(String));
    case "pattern":
      return cause.invalid(base, value, `${base} in body should match '${(e.params as { pattern: string }).pattern}'`);
    default:
      return cause.invalid(base, value, `${base} in body ${e.message ?? "is invalid"}`);
  }
}

/** `/spec/containers/0/resources/limits/nvidia.com~1gpu` → `spec.containers[0].resources.limits[nvidia.com/gpu]`. */
export function fieldPath(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(seg) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

function valueAt(obj: unknown, pointer: string): unknown {
  let cur = obj;
  for (const raw of pointer.split("/").slice(1)) cur = (cur as Record<string, unknown> | undefined)?.[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  return cur;
}

function dedupe(causes: StatusCause[]): StatusCause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const k = `${c.field}|${c.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
