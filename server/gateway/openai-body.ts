import { z } from "zod";

/*
 * The request bodies of OpenAI's API as the gateway checks them before routing: the parameters
 * OpenAI itself validates, with its ranges. Unknown parameters pass through (`loose`): vLLM takes
 * extra sampling parameters (top_k, min_p, guided_json…) that OpenAI does not have.
 */

const int = z.int();
const opt = <T extends z.ZodType>(t: T) => t.nullish();

const ROLES = ["system", "developer", "user", "assistant", "tool", "function"] as const;
/** Content part types OpenAI accepts, and the audio and video ones vLLM adds. */
const PART_TYPES = ["text", "image_url", "input_audio", "file", "refusal", "audio_url", "video_url"] as const;

const contentPart = z.object({ type: z.enum(PART_TYPES) }).loose();
const content = z.union([z.string(), z.array(contentPart)]);

const message = z
  .object({
    role: z.enum(ROLES),
    // null only on an assistant turn that called tools; checked below.
    content: content.nullish(),
    name: opt(z.string()),
    tool_call_id: opt(z.string()),
    tool_calls: opt(z.array(z.object({ id: z.string(), type: z.string(), function: z.object({ name: z.string() }).loose() }).loose())),
  })
  .loose()
  .superRefine((m, ctx) => {
    if (m.content == null && !(m.role === "assistant" && (m.tool_calls?.length || m.function_call))) {
      ctx.addIssue({ code: "invalid_type", expected: "string", path: ["content"], input: m.content, message: "content is required" });
    }
    if (m.role === "tool" && !m.tool_call_id) ctx.addIssue({ code: "invalid_type", expected: "string", path: ["tool_call_id"], input: undefined, message: "tool_call_id is required" });
  });

const responseFormat = z
  .object({ type: z.enum(["text", "json_object", "json_schema"]), json_schema: opt(z.object({ name: z.string().min(1).max(64), schema: opt(z.record(z.string(), z.unknown())), strict: opt(z.boolean()) }).loose()) })
  .loose()
  .superRefine((f, ctx) => {
    if (f.type === "json_schema" && !f.json_schema) ctx.addIssue({ code: "invalid_type", expected: "object", path: ["json_schema"], input: undefined, message: "json_schema is required" });
  });

const tool = z.object({ type: z.literal("function"), function: z.object({ name: z.string().min(1).max(64), description: opt(z.string()), parameters: opt(z.record(z.string(), z.unknown())) }).loose() }).loose();

/** What chat and legacy completions share. */
const sampling = {
  model: z.string().min(1),
  max_tokens: opt(int.min(1)),
  n: opt(int.min(1).max(128)),
  temperature: opt(z.number().min(0).max(2)),
  top_p: opt(z.number().min(0).max(1)),
  presence_penalty: opt(z.number().min(-2).max(2)),
  frequency_penalty: opt(z.number().min(-2).max(2)),
  seed: opt(int),
  stop: opt(z.union([z.string(), z.array(z.string()).max(4)])),
  stream: opt(z.boolean()),
  stream_options: opt(z.object({ include_usage: opt(z.boolean()) }).loose()),
  logit_bias: opt(z.record(z.string(), z.number().min(-100).max(100))),
  user: opt(z.string()),
};

export const chatBody = z
  .object({
    ...sampling,
    messages: z.array(message).min(1),
    max_completion_tokens: opt(int.min(1)),
    logprobs: opt(z.boolean()),
    top_logprobs: opt(int.min(0).max(20)),
    response_format: opt(responseFormat),
    tools: opt(z.array(tool).max(128)),
    tool_choice: opt(z.union([z.enum(["none", "auto", "required"]), z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) })])),
    parallel_tool_calls: opt(z.boolean()),
  })
  .loose();

export const completionBody = z
  .object({
    ...sampling,
    prompt: z.union([z.string(), z.array(z.string()).min(1), z.array(int).min(1), z.array(z.array(int).min(1)).min(1)]),
    echo: opt(z.boolean()),
    logprobs: opt(int.min(0).max(5)),
    best_of: opt(int.min(1).max(20)),
    suffix: opt(z.string()),
  })
  .loose();

export const embeddingBody = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.string()).min(1).max(2048), z.array(int).min(1), z.array(z.array(int).min(1)).min(1).max(2048)]),
    encoding_format: opt(z.enum(["float", "base64"])),
    dimensions: opt(int.min(1)),
    user: opt(z.string()),
  })
  .loose();
