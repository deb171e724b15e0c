import type http from "node:http";
import type { GatewayCall } from "./call.ts";
import type { ColdStartGate } from "./cold-start.ts";
import type { Admitted, OverloadGate } from "./overload/gate.ts";

/**
 * A call's way past the two places the gateway may hold it before a replica: the cold-start gate
 * (no replica ready yet) and the overload queue (the replicas saturated). Null, logged as a 499,
 * when the client left while held; a refusal throws (503 or 429, with Retry-After).
 */
export async function admitCall(coldStart: ColdStartGate, overload: OverloadGate, call: GatewayCall, body: Record<string, unknown>, headers: http.IncomingHttpHeaders, res: http.ServerResponse): Promise<Admitted | null> {
  const signal = abortOnClose(res);
  const admitted = (await coldStart.hold(call, signal)) ? await overload.admit(call, body, headers, signal) : null;
  if (!admitted) Object.assign(call, { status: 499, errorClass: "client_closed" });
  return admitted;
}

/** Aborted when the client goes away before its answer started (a held call then leaves its queue). */
function abortOnClose(res: http.ServerResponse): AbortSignal {
  const ac = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}
