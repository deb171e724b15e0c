import type { IncomingMessage, ServerResponse } from "node:http";
import { errors } from "./status-error.ts";
import { patchObject } from "./patch-handler.ts";
import { discovery } from "./discovery.ts";
import { parseResourcePath, type ResourcePath } from "./request-path.ts";
import { apiVersionOf, type ResourceKind } from "./resource-kinds.ts";
import { isRecord, omit, type KubeObject } from "./kube-object.ts";
import type { DeleteOptions, Registry } from "./registry.ts";
import type { WatchHub } from "./watch-hub.ts";

export interface Reply {
  code: number;
  body: unknown;
}

/**
 * Maps one REST request onto the registry: verbs by method and path shape, options from the
 * query string as the API server names them. Watches are handed to the WatchHub, which owns the
 * response from then on (the returned reply is undefined).
 */
export function handleRest(
  registry: Registry,
  watches: WatchHub,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: string,
  serverAddress: string,
): Reply | undefined {
  const method = req.method ?? "GET";
  const doc = method === "GET" ? discovery(url.pathname, serverAddress) : undefined;
  if (doc) return { code: 200, body: doc };
  const path = parseResourcePath(url.pathname);
  if (!path) throw errors.pathNotFound(url.pathname);
  const q = url.searchParams;
  const dryRun = q.getAll("dryRun").length > 0;
  if (dryRun && q.getAll("dryRun").some((d) => d !== "All")) {
    throw errors.invalid("CreateOptions.meta.k8s.io", "", "meta.k8s.io", "CreateOptions", [
      { reason: "FieldValueNotSupported", message: `Unsupported value: "${q.get("dryRun")}": supported values: "All"`, field: "dryRun" },
    ]);
  }
  const { kind, namespace, name, subresource } = path;
  const status = subresource === "status" ? ("status" as const) : undefined;

  if (method === "GET" && !name) {
    const isWatch = q.get("watch") === "true" || q.get("watch") === "1";
    if (isWatch) {
      watches.serve(res, {
        kind,
        namespace,
        labelSelector: q.get("labelSelector") ?? undefined,
        fieldSelector: q.get("fieldSelector") ?? undefined,
        resourceVersion: q.get("resourceVersion") ?? undefined,
        allowWatchBookmarks: q.get("allowWatchBookmarks") === "true",
        sendInitialEvents: q.get("sendInitialEvents") === "true",
        timeoutSeconds: q.has("timeoutSeconds") ? Number(q.get("timeoutSeconds")) : undefined,
      });
      return undefined;
    }
    return { code: 200, body: list(registry, path, q) };
  }
  if (method === "GET") return { code: 200, body: registry.get(kind, namespace, name!) };
  if (method === "POST" && subresource === "binding") return { code: 201, body: registry.bind(namespace!, name!, parseJson(body)) };
  if (method === "POST" && subresource === "eviction") return { code: 201, body: evict(registry, path, parseJson(body)) };
  if (method === "POST" && !name) return { code: 201, body: registry.create(kind, namespace, parseJson(body), { dryRun }) };
  if (method === "PUT" && name) return { code: 200, body: registry.update(kind, namespace, name, parseJson(body), { dryRun, subresource: status }) };
  if (method === "PATCH" && name) {
    const force = q.has("force") ? q.get("force") === "true" : undefined;
    const r = patchObject(registry, kind, namespace, name, req.headers["content-type"] ?? "", body, {
      fieldManager: q.get("fieldManager") ?? undefined,
      force,
      dryRun,
      subresource: status,
    });
    return { code: r.created ? 201 : 200, body: r.object };
  }
  if (method === "DELETE" && name) {
    const r = registry.delete(kind, namespace, name, deleteOptions(q, body, dryRun));
    return { code: r.code, body: r.object };
  }
  if (method === "DELETE") return { code: 200, body: deleteCollection(registry, path, q, body, dryRun) };
  throw errors.methodNotAllowed(method);
}

/**
 * POST pods/<name>/eviction, what `kubectl drain` sends: with no PodDisruptionBudgets to consult,
 * it is a graceful delete with the eviction's delete options.
 */
function evict(registry: Registry, path: ResourcePath, body: unknown) {
  const opts = isRecord(body) && isRecord(body.deleteOptions) ? (body.deleteOptions as { gracePeriodSeconds?: number }) : {};
  registry.delete(path.kind, path.namespace, path.name!, { gracePeriodSeconds: opts.gracePeriodSeconds });
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (e) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

/** Built-in lists carry items without apiVersion/kind, as the real server's typed lists do; custom resources keep them. */
function asListItem(kind: ResourceKind, o: KubeObject): unknown {
  if (kind.custom) return o;
  return omit(o, ["apiVersion", "kind"]);
}

interface ContinueToken {
  rv: number;
  start: string;
}

function list(registry: Registry, path: ResourcePath, q: URLSearchParams) {
  const { kind, namespace } = path;
  let items = registry.list(kind, namespace, { labelSelector: q.get("labelSelector") ?? undefined, fieldSelector: q.get("fieldSelector") ?? undefined });
  let revision = registry.store.revision;
  const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;
  const cont = q.get("continue");
  if (cont) {
    let token: ContinueToken;
    try {
      token = JSON.parse(Buffer.from(cont, "base64url").toString()) as ContinueToken;
    } catch {
      throw errors.badRequest("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
    }
    if (token.rv < registry.store.oldestResumable) {
      throw errors.expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.");
    }
    revision = token.rv;
    items = items.filter((o) => keyOf(o) > token.start);
  }
  const limit = Number(q.get("limit") ?? 0);
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (limit > 0 && items.length > limit) {
    metadata.remainingItemCount = items.length - limit;
    items = items.slice(0, limit);
    metadata.continue = Buffer.from(JSON.stringify({ rv: revision, start: keyOf(items.at(-1)!) } satisfies ContinueToken)).toString("base64url");
  }
  return { kind: `${kind.kind}List`, apiVersion: apiVersionOf(kind), metadata, items: items.map((o) => asListItem(kind, o)) };
}

function deleteOptions(q: URLSearchParams, body: string, dryRun: boolean): DeleteOptions {
  let b: Record<string, unknown> = {};
  if (body.trim()) {
    const parsed = parseJson(body);
    if (isRecord(parsed)) b = parsed;
  }
  const grace = q.get("gracePeriodSeconds") ?? b.gracePeriodSeconds;
  return {
    dryRun: dryRun || (Array.isArray(b.dryRun) && b.dryRun.includes("All")),
    gracePeriodSeconds: grace === undefined || grace === null ? undefined : Number(grace),
    propagationPolicy: (q.get("propagationPolicy") ?? b.propagationPolicy ?? undefined) as DeleteOptions["propagationPolicy"],
    preconditions: isRecord(b.preconditions) ? (b.preconditions as DeleteOptions["preconditions"]) : undefined,
  };
}

function deleteCollection(registry: Registry, path: ResourcePath, q: URLSearchParams, body: string, dryRun: boolean) {
  const { kind, namespace } = path;
  const opts = deleteOptions(q, body, dryRun);
  const victims = registry.list(kind, namespace, { labelSelector: q.get("labelSelector") ?? undefined, fieldSelector: q.get("fieldSelector") ?? undefined });
  for (const o of victims) registry.delete(kind, o.metadata.namespace, o.metadata.name!, opts);
  return { kind: `${kind.kind}List`, apiVersion: apiVersionOf(kind), metadata: { resourceVersion: String(registry.store.revision) }, items: victims.map((o) => asListItem(kind, o)) };
}
