import { qualifiedResource, type ResourceKind } from "./resource-kinds.ts";

/** One entry of `details.causes`, naming the field the way the API server's field paths do. */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

/** A metav1.Status, the body of every error the real API server returns. */
export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure" | "Success";
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** Thrown anywhere in the request path; the HTTP layer writes its Status as the response body. */
export class ApiError extends Error {
  constructor(readonly status: Status) {
    super(status.message);
  }
  get code(): number {
    return this.status.code;
  }
}

function failure(code: number, reason: string, message: string, details?: Status["details"]): ApiError {
  return new ApiError({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, details, code });
}

function detailsOf(k: ResourceKind, name: string): Status["details"] {
  return k.group ? { name, group: k.group, kind: k.plural } : { name, kind: k.plural };
}

export const errors = {
  notFound: (k: ResourceKind, name: string) => failure(404, "NotFound", `${qualifiedResource(k)} "${name}" not found`, detailsOf(k, name)),
  alreadyExists: (k: ResourceKind, name: string) => failure(409, "AlreadyExists", `${qualifiedResource(k)} "${name}" already exists`, detailsOf(k, name)),
  conflict: (k: ResourceKind, name: string) =>
    failure(
      409,
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedResource(k)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      detailsOf(k, name),
    ),
  /** `kindLabel` is the kind as the real message prints it, e.g. `Pod` or `InferenceService.serving.kserve.io`. */
  invalid: (kindLabel: string, name: string, group: string, kind: string, causes: StatusCause[]) =>
    failure(
      422,
      "Invalid",
      `${kindLabel} "${name}" is invalid: ${causes.length === 1 ? describe(causes[0]!) : `[${causes.map(describe).join(", ")}]`}`,
      { name, ...(group ? { group } : {}), kind, causes },
    ),
  /** An expired resourceVersion: the watch cache or etcd has compacted past it. */
  expired: (message: string) => failure(410, "Expired", message),
  badRequest: (message: string) => failure(400, "BadRequest", message),
  forbidden: (k: ResourceKind, name: string, why: string) =>
    failure(403, "Forbidden", `${qualifiedResource(k)} "${name}" is forbidden: ${why}`, detailsOf(k, name)),
  methodNotAllowed: (verb: string) => failure(405, "MethodNotAllowed", `the server does not allow this method on the requested resource (${verb})`),
  unsupportedMediaType: (accepted: string[]) =>
    failure(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`),
  /** JSON patch operations that cannot apply, which the real server answers with a bare 422. */
  unprocessable: (message: string) => failure(422, "", message),
  internal: (message: string) => failure(500, "InternalError", `Internal error occurred: ${message}`),
  pathNotFound: (path: string) => failure(404, "NotFound", `the server could not find the requested resource (get ${path})`),
};

function describe(c: StatusCause): string {
  return c.field ? `${c.field}: ${c.message}` : c.message;
}

/** Causes as the apimachinery field errors phrase them. */
export const cause = {
  required: (field: string, detail = ""): StatusCause => ({ reason: "FieldValueRequired", message: `Required value${detail ? `: ${detail}` : ""}`, field }),
  invalid: (field: string, value: unknown, detail: string): StatusCause => ({
    reason: "FieldValueInvalid",
    message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
    field,
  }),
  notSupported: (field: string, value: unknown, allowed: string[]): StatusCause => ({
    reason: "FieldValueNotSupported",
    message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${allowed.map((a) => `"${a}"`).join(", ")}`,
    field,
  }),
  forbidden: (field: string, detail: string): StatusCause => ({ reason: "FieldValueForbidden", message: `Forbidden: ${detail}`, field }),
  typeInvalid: (field: string, value: unknown, detail: string): StatusCause => ({
    reason: "FieldValueTypeInvalid",
    message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
    field,
  }),
};

export function successStatus(k: ResourceKind, name: string, uid?: string): Status {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details: { ...detailsOf(k, name), uid }, code: 200 };
}
