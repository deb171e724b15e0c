import { describe, expect, it } from "vitest";
import { inferBodyOf, inferResponseOf } from "./tensors.ts";
import type { InferTensor, ModelInferRequest } from "./proto.ts";

const request = (inputs: Partial<InferTensor>[], raw: Buffer[] = []): ModelInferRequest => ({
  model_name: "m",
  model_version: "",
  id: "",
  parameters: {},
  inputs: inputs.map((t) => ({ name: "x", datatype: "FP32", shape: [1], parameters: {}, contents: null, ...t })),
  outputs: [],
  raw_input_contents: raw,
});

const dataOf = (req: ModelInferRequest) => (inferBodyOf(req).body.inputs as { data: unknown[] }[])[0]!.data;

describe("gRPC tensors to and from KServe v2 JSON", () => {
  it("reads raw little-endian numbers of every width, FP16 included", () => {
    const fp16 = Buffer.from(Uint16Array.of(0x3c00, 0xc000, 0x3555).buffer); // 1, -2, ~0.333
    expect(dataOf(request([{ datatype: "FP16", shape: [3] }], [fp16]))).toEqual([1, -2, 0.333251953125]);
    expect(dataOf(request([{ datatype: "INT64", shape: [2] }], [Buffer.from(BigInt64Array.of(-5n, 1n << 40n).buffer)]))).toEqual([-5, 2 ** 40]);
    expect(dataOf(request([{ datatype: "INT16", shape: [2] }], [Buffer.from(Int16Array.of(-300, 7).buffer)]))).toEqual([-300, 7]);
  });

  it("reads raw BYTES as length-prefixed UTF-8 strings, and names an input whose length runs past the data", () => {
    const el = (s: string) => [Buffer.from(Uint32Array.of(Buffer.byteLength(s)).buffer), Buffer.from(s)];
    expect(dataOf(request([{ datatype: "BYTES", shape: [2] }], [Buffer.concat([...el("merhaba"), ...el("dünya")])]))).toEqual(["merhaba", "dünya"]);
    expect(() => inferBodyOf(request([{ name: "text", datatype: "BYTES", shape: [1] }], [Buffer.concat([Buffer.from(Uint32Array.of(9).buffer), Buffer.from("abc")])]))).toThrow(/input 'text': a raw BYTES element says it is 9 bytes long/);
  });

  it("refuses raw contents that do not give one entry per input", () => {
    expect(() => inferBodyOf(request([{}, { name: "y" }], [Buffer.alloc(4)]))).toThrow(/raw_input_contents holds 1 entries for 2 inputs/);
  });

  it("answers raw when asked raw, and round-trips FP16 to the nearest half", () => {
    const out = inferResponseOf({ outputs: [{ name: "o", datatype: "FP16", shape: [2], data: [1.5, -0.1] }] }, "m", false);
    expect(out.outputs[0]!.contents).toBeUndefined();
    const back = dataOf(request([{ datatype: "FP16", shape: [2] }], out.raw_output_contents));
    expect(back[0]).toBe(1.5);
    expect(back[1]).toBeCloseTo(-0.1, 3);
  });

  it("answers typed contents in the datatype's field, BYTES as bytes", () => {
    const out = inferResponseOf({ outputs: [{ name: "o", datatype: "BYTES", shape: [1], data: ["ok"] }, { name: "n", datatype: "INT32", shape: [1, 2], data: [[3, 4]] }] }, "m", false);
    expect(out.outputs.map((o) => o.contents)).toEqual([{ bytes_contents: [Buffer.from("ok")] }, { int_contents: [3, 4] }]);
  });
});
