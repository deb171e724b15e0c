import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

/**
 * The Open Inference Protocol's gRPC service, loaded from the vendored .proto (no code generation
 * step: proto-loader reads it at start). Field names stay the protocol's snake_case; int64s
 * become numbers (the tensor rules cap INT64 at JavaScript's safe integers anyway), and a oneof
 * names its chosen field (`parameter_choice`).
 */
const definition = protoLoader.loadSync(path.join(import.meta.dirname, "grpc_predict_v2.proto"), {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
});

const inference = (grpc.loadPackageDefinition(definition) as unknown as { inference: { GRPCInferenceService: grpc.ServiceClientConstructor } }).inference;

export const GRPCInferenceService = inference.GRPCInferenceService;

/** An InferParameter as proto-loader hands it over: the field the oneof chose, set. */
export interface InferParameter {
  parameter_choice?: "bool_param" | "int64_param" | "string_param" | "double_param" | "uint64_param";
  bool_param?: boolean;
  int64_param?: number;
  string_param?: string;
  double_param?: number;
  uint64_param?: number;
}

export interface TensorContents {
  bool_contents: boolean[];
  int_contents: number[];
  int64_contents: number[];
  uint_contents: number[];
  uint64_contents: number[];
  fp32_contents: number[];
  fp64_contents: number[];
  bytes_contents: Buffer[];
}

export interface InferTensor {
  name: string;
  datatype: string;
  shape: number[];
  parameters: Record<string, InferParameter>;
  contents: TensorContents | null;
}

export interface ModelInferRequest {
  model_name: string;
  model_version: string;
  id: string;
  parameters: Record<string, InferParameter>;
  inputs: InferTensor[];
  outputs: { name: string; parameters: Record<string, InferParameter> }[];
  raw_input_contents: Buffer[];
}

export interface ModelInferResponse {
  model_name: string;
  model_version: string;
  id: string;
  parameters: Record<string, InferParameter>;
  outputs: (Omit<InferTensor, "contents"> & { contents?: Partial<TensorContents> })[];
  raw_output_contents: Buffer[];
}
