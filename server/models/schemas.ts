import { z } from "zod";
import { id, positiveBigInt } from "../schemas/common.ts";
import { ModelFormat, ModelTask, Precision } from "../db/generated/enums.ts";

export const modelName = z
  .string()
  .trim()
  .min(2, "at least 2 characters")
  .max(80, "at most 80 characters")
  .regex(/^[a-z0-9][a-z0-9._-]*$/, "lowercase letters, digits, dots, dashes and underscores, like llama-3.1-8b");

export const createModelInput = z.object({
  name: modelName,
  task: z.enum(ModelTask),
  description: z.string().trim().max(2000, "at most 2000 characters").default(""),
});

export const addModelVersionInput = z
  .object({
    modelId: id,
    version: z.string().trim().min(1, "required").max(32, "at most 32 characters").regex(/^[A-Za-z0-9._-]+$/, "letters, digits, dots and dashes, like 1.1"),
    artifactUri: z
      .string()
      .trim()
      .min(1, "required")
      .max(500, "at most 500 characters")
      .regex(/^(s3|gs|hf|file|https?|oci|pvc):\/\/\S+$/, "a URI such as s3://bucket/path or hf://org/model"),
    format: z.enum(ModelFormat),
    precision: z.enum(Precision),
    parameterCount: positiveBigInt,
    weightBytes: positiveBigInt,
    minGpuMemoryBytes: positiveBigInt,
    /** For LLMs: the engine's max_model_len; the gateway refuses a larger max_tokens. */
    contextTokens: z.number().int("a whole number of tokens").min(256, "at least 256 tokens").max(10_000_000, "at most 10,000,000 tokens").nullish(),
  })
  .refine((v) => v.minGpuMemoryBytes >= v.weightBytes, {
    path: ["minGpuMemoryBytes"],
    message: "must be at least the weights' size",
  });

export const modelIdInput = z.object({ id });

export const modelVersionIdInput = z.object({ id });

/** `expectedUpdatedAt` is the model's updatedAt as the editor loaded it (a later edit is a conflict). */
export const updateModelInput = z.object({
  id,
  expectedUpdatedAt: z.coerce.date(),
  name: modelName.optional(),
  description: createModelInput.shape.description.unwrap().optional(),
});

export type CreateModelInput = z.infer<typeof createModelInput>;
export type AddModelVersionInput = z.infer<typeof addModelVersionInput>;
export type ModelIdInput = z.infer<typeof modelIdInput>;
export type ModelVersionIdInput = z.infer<typeof modelVersionIdInput>;
export type UpdateModelInput = z.infer<typeof updateModelInput>;
