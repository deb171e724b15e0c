import { ApiException, Watch, type KubeConfig } from "@kubernetes/client-node";
import type { Status } from "./status-error.ts";

/** Polls `probe` until it returns something other than undefined/false, or fails naming `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The Status an API call failed with, as a driver would read it from client-node's ApiException. */
export async function failure(call: Promise<unknown>): Promise<Status> {
  try {
    await call;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body = typeof e.body === "string" ? (JSON.parse(e.body) as Status) : (e.body as Status);
    if (body.code !== e.code) throw new Error(`HTTP ${e.code} carried a Status with code ${body.code}`);
    return body;
  }
  throw new Error("the call succeeded");
}

export interface WatchEvent {
  type: string;
  object: { kind?: string; code?: number; reason?: string; metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; [k: string]: unknown };
}

/** A watch through client-node's Watch helper, recording its events and how it ended. */
export async function recordWatch(kc: KubeConfig, path: string, params: Record<string, string | number | boolean>) {
  const events: WatchEvent[] = [];
  let resolveDone!: (err: unknown) => void;
  const done = new Promise<unknown>((r) => (resolveDone = r));
  const controller = await new Watch(kc).watch(path, params, (type, object) => events.push({ type, object }), (err) => resolveDone(err));
  return { events, done, abort: () => controller.abort() };
}
