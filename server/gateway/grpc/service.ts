import * as grpc from "@grpc/grpc-js";
import { httpStatusOf } from "../../errors.ts";
import { newCall, type GatewayCall } from "../call.ts";
import { errorClassOf } from "../errors.ts";
import { validateInfer } from "../kserve-rules.ts";
import { modelMetadata, servingReplica, type KserveDeps } from "../kserve-routes.ts";
import { inferUpstream } from "./infer-upstream.ts";
import { grpcErrorOf } from "./status.ts";
import { inferBodyOf, inferResponseOf } from "./tensors.ts";
import { GRPCInferenceService, type ModelInferRequest } from "./proto.ts";

/** What the gRPC listener shares with the gateway's HTTP side: the same keys, limits, routing, call log and metrics. */
export interface GrpcDeps extends KserveDeps {
  /** Sets the call's key and tenant from `authorization: Bearer …`, or throws a 401-class error. */
  authenticate(call: GatewayCall, authorization: string | undefined): void;
  checkLimits(call: GatewayCall): Promise<void>;
  /** Scale from zero, as on HTTP (cold-start.ts): true once the call can be served, false if the client left; else throws UNAVAILABLE. */
  holdColdStart(call: GatewayCall, signal: AbortSignal): Promise<boolean>;
  clientIp(remote: string | undefined, forwardedFor: string | undefined): string | null;
  /** Marks the call an inference call (its span, continuing the caller's `traceparent`; its GenAI metrics). */
  inference(call: GatewayCall, traceparent: string | undefined, model: string): void;
  /** A call begins (in flight) and ends (its row if not yet written, its metrics). */
  enter(): void;
  leave(call: GatewayCall): void;
}

type Unary = grpc.ServerUnaryCall<unknown, unknown>;
type Answer = grpc.sendUnaryData<unknown>;

const header = (sc: Unary, name: string) => {
  const v = sc.metadata.get(name)[0];
  return typeof v === "string" ? v : undefined;
};

/** Aborts when the client cancels the call (or its deadline passes): a held call then stops waiting. */
function cancelSignal(sc: Unary): AbortSignal {
  const ac = new AbortController();
  sc.once("cancelled", () => ac.abort());
  return ac.signal;
}

/** "ipv4:127.0.0.1:5000", "[::1]:5000" or "127.0.0.1:5000" → the address alone. */
function peerAddress(peer: string): string | undefined {
  const m = /^(?:ipv[46]:)?\[?([^\]]+?)\]?:\d+$/.exec(peer);
  return m?.[1];
}

/** The headers an HTTP answer carries, as the gRPC answer's initial metadata. */
function callMetadata(call: GatewayCall): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set("x-kule-request-id", call.requestId);
  if (call.version) {
    md.set("x-kule-version", call.version.label);
    md.set("x-kule-endpoint-revision", String(call.endpoint!.revision));
  }
  if (call.replica) md.set("x-kule-replica-region", call.replica.region);
  if (call.trace) md.set("traceparent", call.trace.traceparent);
  return md;
}

/**
 * A model call over gRPC, as the HTTP side handles one: authenticated from the metadata, its row
 * handed to the journal before the answer goes out, its status in the call log the HTTP status
 * the same outcome has there (so the explorer and the metrics read both alike).
 */
function modelCall(deps: GrpcDeps, serve: (call: GatewayCall, req: never, sc: Unary) => Promise<unknown>) {
  return (sc: Unary, answer: Answer) => {
    const call = newCall("kserve", deps.clientIp(peerAddress(sc.getPeer()), header(sc, "x-forwarded-for")));
    deps.enter();
    void (async () => {
      try {
        deps.authenticate(call, header(sc, "authorization"));
        const value = await serve(call, sc.request as never, sc);
        call.status ||= 200;
        deps.record(call);
        sc.sendMetadata(callMetadata(call));
        answer(null, value);
      } catch (e) {
        // A replica's own refusal keeps its status in the row, as the HTTP side passes it through.
        call.status ||= httpStatusOf(e);
        call.errorClass ??= errorClassOf(call.status);
        deps.record(call);
        answer(grpcErrorOf(e, call.requestId));
      } finally {
        deps.leave(call);
      }
    })();
  };
}

/** inference.GRPCInferenceService over the gateway: liveness, readiness and server metadata answer anyone, as on HTTP. */
export function inferenceService(deps: GrpcDeps): grpc.UntypedServiceImplementation {
  const anyone = (value: () => unknown) => (_sc: Unary, answer: Answer) => answer(null, value());
  return {
    ServerLive: anyone(() => ({ live: true })),
    ServerReady: anyone(() => ({ ready: !!deps.config() })),
    ServerMetadata: anyone(() => ({ name: "kule", version: "0.1.0", extensions: [] })),
    ModelReady: modelCall(deps, async (call, req: { name: string }) => {
      const replica = servingReplica(deps.endpointFor(call, req.name), call, deps.health);
      // As on HTTP, a model with no replica to serve this caller logs 503; the answer is ready=false.
      call.status = replica ? 200 : 503;
      return { ready: !!replica };
    }),
    ModelMetadata: modelCall(deps, async (call, req: { name: string }) => modelMetadata(deps.endpointFor(call, req.name), call, deps)),
    ModelInfer: modelCall(deps, async (call, req: ModelInferRequest, sc) => {
      deps.inference(call, header(sc, "traceparent"), req.model_name);
      call.endpoint = deps.endpointFor(call, req.model_name);
      const { body, raw } = inferBodyOf(req);
      validateInfer(body);
      await deps.checkLimits(call);
      if (!(await deps.holdColdStart(call, cancelSignal(sc)))) {
        call.status = 499;
        call.errorClass = "client_closed";
        return {};
      }
      const answer = await inferUpstream(deps, call, body, header(sc, "x-kule-session"));
      const response = inferResponseOf(answer, call.endpoint.slug, raw);
      call.status = 200;
      return response;
    }),
  };
}

/** Serves the service on `host:port` (0: any free port); the answer's `url` is host:port for clients. */
export async function startGrpcServer(deps: GrpcDeps, port: number, host: string, maxMessageBytes: number) {
  const server = new grpc.Server({ "grpc.max_receive_message_length": maxMessageBytes });
  server.addService(GRPCInferenceService.service, inferenceService(deps));
  const bound = await new Promise<number>((resolve, reject) => server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  return {
    url: `${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Calls in flight get a few seconds to finish; then the rest are cut.
        const force = setTimeout(() => server.forceShutdown(), 5000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
