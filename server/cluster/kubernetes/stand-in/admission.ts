import { isDeepStrictEqual } from "node:util";
import { errors, type StatusCause } from "./status-error.ts";
import { schemaErrors } from "./schema-validation.ts";
import { semanticErrors, updateErrors } from "./semantic-validation.ts";
import { omit, type KubeObject } from "./kube-object.ts";
import type { ResourceKind } from "./resource-kinds.ts";

/** Rejects `obj` with the API server's 422 when its schema or the server's own checks fail. */
export function admit(kind: ResourceKind, obj: KubeObject, old?: KubeObject): void {
  const causes: StatusCause[] = [...schemaErrors(obj), ...semanticErrors(obj), ...(old ? updateErrors(obj, old) : [])];
  if (causes.length === 0) return;
  const label = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  throw errors.invalid(label, obj.metadata.name ?? "", kind.group, kind.kind, causes);
}

/** Whether a change reaches beyond metadata and status, which is what bumps metadata.generation. */
export function desiredStateChanged(a: KubeObject, b: KubeObject): boolean {
  return !isDeepStrictEqual(omit(a, ["metadata", "status"]), omit(b, ["metadata", "status"]));
}
