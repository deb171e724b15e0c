import { z } from "zod";
import { InvalidInputError } from "../errors.ts";
import { paramOf } from "./openai-rules.ts";

/*
 * The Open Inference Protocol's (KServe v2) infer request, checked at the door: each input tensor
 * has a name, a shape, a datatype the protocol knows and exactly as many elements of that type as
 * its shape holds. A bad tensor is a 400 naming the input, before any replica sees it.
 */

const DATATYPES = ["BOOL", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64", "FP16", "FP32", "FP64", "BYTES"] as const;
type Datatype = (typeof DATATYPES)[number];

const tensor = z
  .object({
    name: z.string().min(1),
    shape: z.array(z.int().min(0)),
    datatype: z.enum(DATATYPES),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    data: z.array(z.unknown()),
  })
  .loose();

export const inferBody = z
  .object({
    id: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    inputs: z.array(tensor).min(1),
    outputs: z.array(z.object({ name: z.string().min(1) }).loose()).nullish(),
  })
  .loose();

const INT_RANGE: Partial<Record<Datatype, [number, number]>> = {
  UINT8: [0, 255],
  UINT16: [0, 65_535],
  UINT32: [0, 4_294_967_295],
  UINT64: [0, Number.MAX_SAFE_INTEGER],
  INT8: [-128, 127],
  INT16: [-32_768, 32_767],
  INT32: [-2_147_483_648, 2_147_483_647],
  INT64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const FP_MAX: Partial<Record<Datatype, number>> = { FP16: 65_504, FP32: 3.4028234663852886e38, FP64: Number.MAX_VALUE };

/** Why one element is not a `datatype`, or null when it is one. */
function elementProblem(v: unknown, datatype: Datatype): string | null {
  if (datatype === "BOOL") return typeof v === "boolean" ? null : "a boolean";
  if (datatype === "BYTES") return typeof v === "string" ? null : "a string";
  const range = INT_RANGE[datatype];
  if (range) return typeof v === "number" && Number.isInteger(v) && v >= range[0] && v <= range[1] ? null : `an integer from ${range[0]} to ${range[1]}`;
  const max = FP_MAX[datatype]!;
  return typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= max ? null : `a finite number within ±${max}`;
}

/** Row-major elements of `data`, which the protocol allows flat or nested. */
function flatten(data: unknown[]): unknown[] {
  return data.some(Array.isArray) ? (data.flat(Infinity) as unknown[]) : data;
}

/** Checks an infer body; throws a 400 naming the input (and the field) at fault. */
export function validateInfer(body: unknown) {
  const parsed = inferBody.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = paramOf(issue.path);
    const input = issue.path[0] === "inputs" && typeof issue.path[1] === "number" ? (body as { inputs: { name?: unknown }[] }).inputs[issue.path[1]]?.name : undefined;
    const which = typeof input === "string" ? `input '${input}': ` : "";
    const why = issue.code === "invalid_value" ? `must be one of ${(issue as { values: unknown[] }).values.join(", ")}` : issue.message;
    throw new InvalidInputError(field || "body", `${which}${field || "the request"} ${why}.`);
  }
  const names = new Set<string>();
  parsed.data.inputs.forEach((t, i) => {
    if (names.has(t.name)) throw new InvalidInputError(`inputs[${i}].name`, `input '${t.name}' is given twice.`);
    names.add(t.name);
    const elements = flatten(t.data);
    const needed = t.shape.reduce((a, b) => a * b, 1);
    if (elements.length !== needed) {
      throw new InvalidInputError(`inputs[${i}].data`, `input '${t.name}': shape [${t.shape.join(",")}] holds ${needed} element${needed === 1 ? "" : "s"}, but data has ${elements.length}.`);
    }
    const bad = elements.findIndex((v) => elementProblem(v, t.datatype) !== null);
    if (bad >= 0) throw new InvalidInputError(`inputs[${i}].data`, `input '${t.name}': element ${bad} (${JSON.stringify(elements[bad])}) is not ${elementProblem(elements[bad], t.datatype)}, as datatype ${t.datatype} needs.`);
  });
}
