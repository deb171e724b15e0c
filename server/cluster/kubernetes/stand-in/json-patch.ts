import { isDeepStrictEqual } from "node:util";
import { errors } from "./status-error.ts";

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/**
 * RFC 6902 JSON patch. A body that is not a list of operations is a 400 (it did not decode); an
 * operation that cannot apply is a 422, as evanphx/json-patch errors are in the API server.
 */
export function jsonPatch(doc: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw errors.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  let out = structuredClone(doc);
  for (const raw of patch as Operation[]) {
    const op = raw ?? ({} as Operation);
    switch (op.op) {
      case "add":
        out = put(out, op.path, structuredClone(op.value), "add");
        break;
      case "replace":
        get(out, op.path);
        out = put(out, op.path, structuredClone(op.value), "replace");
        break;
      case "remove":
        get(out, op.path);
        out = del(out, op.path);
        break;
      case "move": {
        const v = get(out, op.from ?? "");
        out = put(del(out, op.from ?? ""), op.path, v, "add");
        break;
      }
      case "copy":
        out = put(out, op.path, structuredClone(get(out, op.from ?? "")), "add");
        break;
      case "test":
        if (!isDeepStrictEqual(get(out, op.path), op.value)) throw errors.unprocessable(`testing value ${op.path} failed: test failed`);
        break;
      default:
        throw errors.badRequest(`Unexpected kind: ${String(op.op)}`);
    }
  }
  return out;
}

function tokens(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw errors.unprocessable(`invalid JSON pointer: ${path}`);
  return path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function get(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const t of tokens(path)) {
    if (Array.isArray(cur) && /^\d+$/.test(t) && Number(t) < cur.length) cur = cur[Number(t)];
    else if (cur !== null && typeof cur === "object" && !Array.isArray(cur) && Object.hasOwn(cur, t)) cur = (cur as Record<string, unknown>)[t];
    else throw errors.unprocessable(`doc is missing path: "${path}": missing value`);
  }
  return cur;
}

function parentOf(doc: unknown, path: string): { parent: unknown; last: string } {
  const ts = tokens(path);
  if (ts.length === 0) return { parent: undefined, last: "" };
  const last = ts.pop()!;
  const parentPath = ts.map((t) => "/" + t.replace(/~/g, "~0").replace(/\//g, "~1")).join("");
  return { parent: get(doc, parentPath), last };
}

function put(doc: unknown, path: string, value: unknown, mode: "add" | "replace"): unknown {
  if (path === "") return value;
  const { parent, last } = parentOf(doc, path);
  if (Array.isArray(parent)) {
    const i = last === "-" ? parent.length : Number(last);
    if (!Number.isInteger(i) || i > parent.length || (mode === "replace" && i >= parent.length)) throw errors.unprocessable(`doc is missing path: "${path}": missing value`);
    parent.splice(i, mode === "replace" ? 1 : 0, value);
  } else if (parent !== null && typeof parent === "object") {
    (parent as Record<string, unknown>)[last] = value;
  } else {
    throw errors.unprocessable(`doc is missing path: "${path}": missing value`);
  }
  return doc;
}

function del(doc: unknown, path: string): unknown {
  const { parent, last } = parentOf(doc, path);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, unknown>)[last];
  return doc;
}
