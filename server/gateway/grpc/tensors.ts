import { InvalidInputError, UpstreamError } from "../../errors.ts";
import type { InferParameter, InferTensor, ModelInferRequest, ModelInferResponse, TensorContents } from "./proto.ts";

/*
 * The gRPC infer messages to and from KServe v2's JSON infer body, which the gateway checks
 * (kserve-rules.ts) and the replicas answer. Tensors come either in typed contents (one field per
 * family of datatypes) or as raw little-endian bytes; the answer goes back the way the request
 * came, as Triton does. BYTES travel as JSON strings on the REST side, so they are read as UTF-8.
 */

type Field = keyof TensorContents;
const FIELD: Record<string, Field | null> = {
  BOOL: "bool_contents",
  INT8: "int_contents",
  INT16: "int_contents",
  INT32: "int_contents",
  INT64: "int64_contents",
  UINT8: "uint_contents",
  UINT16: "uint_contents",
  UINT32: "uint_contents",
  UINT64: "uint64_contents",
  FP16: null,
  FP32: "fp32_contents",
  FP64: "fp64_contents",
  BYTES: "bytes_contents",
};
const WIDTH: Record<string, number> = { BOOL: 1, INT8: 1, UINT8: 1, INT16: 2, UINT16: 2, FP16: 2, INT32: 4, UINT32: 4, FP32: 4, INT64: 8, UINT64: 8, FP64: 8 };

function halfToFloat(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function floatToHalf(f: number): number {
  const sign = f < 0 || Object.is(f, -0) ? 0x8000 : 0;
  const a = Math.abs(f);
  if (Number.isNaN(f)) return 0x7e00;
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24);
  const exp = Math.floor(Math.log2(a));
  const frac = Math.round((a / 2 ** exp - 1) * 1024);
  return frac === 1024 ? sign | ((exp + 16) << 10) : sign | ((exp + 15) << 10) | frac;
}

const READ: Record<string, (v: DataView, at: number) => unknown> = {
  BOOL: (v, at) => v.getUint8(at) !== 0,
  INT8: (v, at) => v.getInt8(at),
  UINT8: (v, at) => v.getUint8(at),
  INT16: (v, at) => v.getInt16(at, true),
  UINT16: (v, at) => v.getUint16(at, true),
  FP16: (v, at) => halfToFloat(v.getUint16(at, true)),
  INT32: (v, at) => v.getInt32(at, true),
  UINT32: (v, at) => v.getUint32(at, true),
  FP32: (v, at) => v.getFloat32(at, true),
  INT64: (v, at) => Number(v.getBigInt64(at, true)),
  UINT64: (v, at) => Number(v.getBigUint64(at, true)),
  FP64: (v, at) => v.getFloat64(at, true),
};
const WRITE: Record<string, (v: DataView, at: number, x: number) => void> = {
  BOOL: (v, at, x) => v.setUint8(at, x ? 1 : 0),
  INT8: (v, at, x) => v.setInt8(at, x),
  UINT8: (v, at, x) => v.setUint8(at, x),
  INT16: (v, at, x) => v.setInt16(at, x, true),
  UINT16: (v, at, x) => v.setUint16(at, x, true),
  FP16: (v, at, x) => v.setUint16(at, floatToHalf(x), true),
  INT32: (v, at, x) => v.setInt32(at, x, true),
  UINT32: (v, at, x) => v.setUint32(at, x, true),
  FP32: (v, at, x) => v.setFloat32(at, x, true),
  INT64: (v, at, x) => v.setBigInt64(at, BigInt(Math.trunc(x)), true),
  UINT64: (v, at, x) => v.setBigUint64(at, BigInt(Math.trunc(x)), true),
  FP64: (v, at, x) => v.setFloat64(at, x, true),
};

/** One input's raw bytes as elements; a length that is not whole elements is a bad input, named. */
function decodeRaw(t: InferTensor, buf: Buffer, i: number): unknown[] {
  const field = `raw_input_contents[${i}]`;
  if (t.datatype === "BYTES") {
    const out: string[] = [];
    for (let at = 0; at < buf.length; ) {
      if (at + 4 > buf.length) throw new InvalidInputError(field, `input '${t.name}': raw BYTES end inside an element's 4-byte length.`);
      const n = buf.readUInt32LE(at);
      if (at + 4 + n > buf.length) throw new InvalidInputError(field, `input '${t.name}': a raw BYTES element says it is ${n} bytes long, past the end of the data.`);
      out.push(buf.toString("utf8", at + 4, at + 4 + n));
      at += 4 + n;
    }
    return out;
  }
  const width = WIDTH[t.datatype];
  if (!width) return []; // an unknown datatype: the tensor rules name it
  if (buf.length % width) throw new InvalidInputError(field, `input '${t.name}': ${buf.length} raw bytes are not a whole number of ${t.datatype} elements (${width} bytes each).`);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  const read = READ[t.datatype]!;
  return Array.from({ length: buf.length / width }, (_, k) => read(view, k * width));
}

/** One input's typed contents as elements, from its datatype's field only. */
function typedData(t: InferTensor): unknown[] {
  if (!(t.datatype in FIELD)) return [];
  const field = FIELD[t.datatype];
  const given = (Object.keys(t.contents ?? {}) as Field[]).filter((f) => t.contents![f]?.length);
  if (!field) {
    if (given.length) throw new InvalidInputError("inputs.contents", `input '${t.name}': ${t.datatype} has no typed contents field; send it in raw_input_contents.`);
    return [];
  }
  if (!t.contents?.[field]?.length && given.length) {
    throw new InvalidInputError("inputs.contents", `input '${t.name}': datatype ${t.datatype} takes its data in contents.${field}, but it came in contents.${given[0]}.`);
  }
  const values = (t.contents?.[field] ?? []) as unknown[];
  return field === "bytes_contents" ? (values as Buffer[]).map((b) => b.toString("utf8")) : values;
}

export function parameterValue(p: InferParameter): unknown {
  return p.parameter_choice ? p[p.parameter_choice] : null;
}

function plainParameters(params: Record<string, InferParameter> | undefined) {
  const entries = Object.entries(params ?? {});
  return entries.length ? Object.fromEntries(entries.map(([k, p]) => [k, parameterValue(p)])) : undefined;
}

function protoParameters(params: unknown): Record<string, InferParameter> {
  if (!params || typeof params !== "object") return {};
  const one = (v: unknown): InferParameter => {
    if (typeof v === "boolean") return { bool_param: v };
    if (typeof v === "number") return Number.isInteger(v) ? { int64_param: v } : { double_param: v };
    return { string_param: typeof v === "string" ? v : JSON.stringify(v) };
  };
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, one(v)]));
}

/** The request as KServe v2's JSON infer body, for the tensor rules and the replica; `raw` says how the answer goes back. */
export function inferBodyOf(req: ModelInferRequest): { body: Record<string, unknown>; raw: boolean } {
  const raw = req.raw_input_contents.length > 0;
  if (raw && req.raw_input_contents.length !== req.inputs.length) {
    throw new InvalidInputError("raw_input_contents", `raw_input_contents holds ${req.raw_input_contents.length} entries for ${req.inputs.length} inputs: give one per input, in the order of inputs.`);
  }
  const inputs = req.inputs.map((t, i) => {
    if (raw && t.contents && Object.values(t.contents).some((v) => (v as unknown[]).length)) {
      throw new InvalidInputError("inputs.contents", `input '${t.name}': data comes either in contents or in raw_input_contents, not both.`);
    }
    return { name: t.name, shape: t.shape, datatype: t.datatype, parameters: plainParameters(t.parameters), data: raw ? decodeRaw(t, req.raw_input_contents[i]!, i) : typedData(t) };
  });
  const outputs = req.outputs.length ? req.outputs.map((o) => ({ name: o.name, parameters: plainParameters(o.parameters) })) : undefined;
  return { body: { id: req.id || undefined, parameters: plainParameters(req.parameters), inputs, outputs }, raw };
}

interface JsonTensor {
  name: string;
  datatype: string;
  shape: number[];
  parameters?: unknown;
  data: unknown[];
}

function encodeRaw(t: JsonTensor, values: unknown[]): Buffer {
  if (t.datatype === "BYTES") return Buffer.concat((values as string[]).flatMap((s) => [Buffer.from(Uint32Array.of(Buffer.byteLength(String(s))).buffer), Buffer.from(String(s))]));
  const width = WIDTH[t.datatype]!;
  const buf = Buffer.alloc(values.length * width);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  values.forEach((x, k) => WRITE[t.datatype]!(view, k * width, Number(x)));
  return buf;
}

/** A replica's JSON infer answer as ModelInferResponse: raw contents when the request was raw (or an output is FP16, which has no typed field). */
export function inferResponseOf(answer: unknown, slug: string, raw: boolean): ModelInferResponse {
  const a = answer as { model_version?: string; id?: string; parameters?: unknown; outputs?: JsonTensor[] } | null;
  const outputs = a?.outputs;
  if (!Array.isArray(outputs) || outputs.some((o) => !o || typeof o.name !== "string" || !(o.datatype in FIELD) || !Array.isArray(o.shape) || !Array.isArray(o.data))) {
    throw new UpstreamError(`The replica serving ${slug} answered an infer call with outputs that are not KServe v2 tensors.`);
  }
  const asRaw = raw || outputs.some((o) => FIELD[o.datatype] === null);
  const response: ModelInferResponse = { model_name: slug, model_version: a?.model_version ?? "", id: a?.id ?? "", parameters: protoParameters(a?.parameters), outputs: [], raw_output_contents: [] };
  for (const o of outputs) {
    const values = o.data.flat(Infinity) as unknown[];
    const tensor = { name: o.name, datatype: o.datatype, shape: o.shape, parameters: protoParameters(o.parameters) };
    if (asRaw) {
      response.outputs.push(tensor);
      response.raw_output_contents.push(encodeRaw(o, values));
    } else {
      const field = FIELD[o.datatype]!;
      response.outputs.push({ ...tensor, contents: { [field]: field === "bytes_contents" ? values.map((v) => Buffer.from(String(v))) : values } });
    }
  }
  return response;
}
