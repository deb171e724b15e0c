import * as grpc from "@grpc/grpc-js";
import { errorFromStatus, NotFoundError, UnavailableError } from "../../errors.ts";
import { GRPCInferenceService, type ModelInferRequest } from "../../gateway/grpc/proto.ts";
import { grpcErrorOf } from "../../gateway/grpc/status.ts";
import { inferBodyOf, inferResponseOf } from "../../gateway/grpc/tensors.ts";
import { inferAnswer, modelMetadata } from "./replica-server.ts";
import type { SimReplica } from "./replica.ts";

type Unary = grpc.ServerUnaryCall<unknown, unknown>;
type Answer = grpc.sendUnaryData<unknown>;

/** A model call: answers the replica's KServe v2 answer, or the gRPC status of its refusal. */
function modelCall(r: SimReplica, serve: (req: never) => Promise<unknown>) {
  return (sc: Unary, answer: Answer) => {
    const req = sc.request as { name?: string; model_name?: string };
    const name = req.name ?? req.model_name ?? "";
    void (async () => {
      if (!r.acceptsWork()) throw new UnavailableError(r.state === "draining" ? "Replica is draining and takes no new requests." : `Replica is ${r.state}.`);
      if (!r.answersTo(name)) throw new NotFoundError("Model", { message: `Request for unknown model: '${name}' is not found` });
      return serve(sc.request as never);
    })().then(
      (value) => answer(null, value),
      (e: unknown) => answer(grpcErrorOf(e, null)),
    );
  };
}

/**
 * The Open Inference Protocol over gRPC on a Triton-like replica (vision, embedding…), on a port
 * of its own as Triton's 8001 is: the same metadata and infer as its HTTP API (replica-server.ts),
 * through the same tensor translation as the gateway's gRPC listener.
 */
export async function startReplicaGrpcServer(r: SimReplica, host: string): Promise<{ port: number; close: () => void }> {
  const server = new grpc.Server();
  server.addService(GRPCInferenceService.service, {
    ServerLive: (_sc: Unary, answer: Answer) => answer(null, { live: true }),
    ServerReady: (_sc: Unary, answer: Answer) => answer(null, { ready: r.acceptsWork() }),
    ServerMetadata: (_sc: Unary, answer: Answer) => answer(null, { name: "triton", version: "2.50.0", extensions: [] }),
    ModelReady: modelCall(r, async () => ({ ready: true })),
    ModelMetadata: modelCall(r, async (req: { name: string }) => modelMetadata(r, req.name)),
    ModelInfer: modelCall(r, async (req: ModelInferRequest) => {
      const { body, raw } = inferBodyOf(req);
      const out = await inferAnswer(r, req.model_name, body);
      if (!out) throw new UnavailableError("The call was cancelled.");
      if (out.status !== 200) throw errorFromStatus(out.status, (out.body as { error: string }).error);
      return inferResponseOf(out.body, req.model_name, raw);
    }),
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(`${host}:0`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  // A replica's ports close at once, in-flight calls cut, as when its process dies.
  return { port, close: () => server.forceShutdown() };
}
