import * as grpc from "@grpc/grpc-js";
import { GRPCInferenceService } from "../gateway/grpc/proto.ts";

export interface GrpcAnswer<T> {
  value: T | null;
  error: grpc.ServiceError | null;
  /** The answer's initial metadata (the HTTP side's headers). */
  headers: grpc.Metadata | null;
}

/**
 * A real gRPC client of inference.GRPCInferenceService, built from the same vendored .proto, as a
 * tenant's code would call the gateway: each call resolves with its value or its status, never throws.
 */
export function inferenceClient(target: string) {
  const client = new GRPCInferenceService(target, grpc.credentials.createInsecure());
  const call = <T>(method: string, request: object, secret?: string, extra: Record<string, string> = {}): Promise<GrpcAnswer<T>> => {
    const md = new grpc.Metadata();
    if (secret) md.set("authorization", `Bearer ${secret}`);
    for (const [k, v] of Object.entries(extra)) md.set(k, v);
    return new Promise((resolve) => {
      let headers: grpc.Metadata | null = null;
      const fn = client[method] as (req: object, md: grpc.Metadata, cb: (e: grpc.ServiceError | null, v: T) => void) => grpc.ClientUnaryCall;
      const c = fn.call(client, request, md, (error, value) => resolve({ value: error ? null : value, error, headers }));
      c.on("metadata", (m: grpc.Metadata) => (headers = m));
    });
  };
  return { call, close: () => client.close() };
}
