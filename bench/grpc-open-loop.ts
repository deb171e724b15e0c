/**
 * bench/open-loop.ts for gRPC: ModelInfer calls at a fixed rate, request i sent at start + i/rate
 * whatever happened to earlier ones, over one HTTP/2 channel (as a gRPC client multiplexes). Input
 * (argv): a JSON {target, rate, seconds, key?}; output: one JSON line {sent, ok, errors, p50_ms,
 * p99_ms}. A small vision tensor (1×64 UINT8), the call a detection client makes.
 */
import * as grpc from "@grpc/grpc-js";
import { GRPCInferenceService } from "../server/gateway/grpc/proto.ts";

const opts = JSON.parse(process.argv[2]!) as { target: string; rate: number; seconds: number; key?: string };
const client = new GRPCInferenceService(opts.target, grpc.credentials.createInsecure());
const md = new grpc.Metadata();
if (opts.key) md.set("authorization", `Bearer ${opts.key}`);
const request = { model_name: "vision", inputs: [{ name: "INPUT0", datatype: "UINT8", shape: [1, 64], contents: { uint_contents: Array.from({ length: 64 }, (_, i) => i) } }] };
const infer = client.ModelInfer!.bind(client) as (req: object, md: grpc.Metadata, cb: (e: grpc.ServiceError | null) => void) => void;

// The first second warms up (JIT, the channel) and is not recorded.
const warm = opts.rate;
const total = warm + opts.rate * opts.seconds;
const latencies: number[] = [];
let ok = 0;
let errors = 0;
let done = 0;
const t0 = performance.now();
await new Promise<void>((resolve) => {
  const send = (i: number) => {
    const at = performance.now();
    infer(request, md, (e) => {
      if (i >= warm) {
        if (e) errors++;
        else ok++;
        latencies.push(performance.now() - at);
      }
      if (++done === total) resolve();
    });
  };
  let next = 0;
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * opts.rate) + 1);
    while (next < due) send(next++);
    if (next < total) setTimeout(tick, 1);
  };
  tick();
});
client.close();
latencies.sort((a, b) => a - b);
const pct = (p: number) => +latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(2);
console.log(JSON.stringify({ sent: total - warm, ok, errors, p50_ms: pct(50), p99_ms: pct(99) }));
