import { z } from "zod";
import { id } from "../schemas/common.ts";

/** A model described by its card, for a model Kule has no version of yet. */
export const modelCard = z.object({
  parameterCount: z.number().min(1e6, "at least 1 million parameters").max(5e12, "at most 5 trillion parameters"),
  precision: z.enum(["fp32", "bf16", "fp16", "fp8", "int8", "int4"]),
  layers: z.number().int("a whole number").min(1, "1 or more").max(512, "at most 512"),
  kvHeads: z.number().int("a whole number").min(1, "1 or more").max(512, "at most 512"),
  headDim: z.number().int("a whole number").min(16, "at least 16").max(1024, "at most 1024"),
});

export const planInput = z
  .object({
    /** A registered model version (its card, precision and context), or a card. */
    modelVersionId: id.optional(),
    card: modelCard.optional(),
    forecast: z.object({
      peakRps: z.number().positive("more than 0").max(100_000, "at most 100,000 requests/s"),
      /** The day's shape: 24 shares of the peak, Istanbul hours; none: flat at the peak. */
      hourly: z.array(z.number().min(0, "0 to 1").max(1, "0 to 1")).length(24, "24 hours").optional(),
      promptTokens: z.number().int("a whole number").min(1, "1 or more").max(1_000_000, "at most 1,000,000"),
      answerTokens: z.number().int("a whole number").min(1, "1 or more").max(100_000, "at most 100,000"),
      /** Share of prompt tokens a shared prefix (system prompt) serves from the prefix cache. */
      prefixShare: z.number().min(0, "0 to 0.95").max(0.95, "0 to 0.95").default(0),
    }),
    slo: z.object({
      ttftP99Ms: z.number().int("a whole number").min(10, "at least 10 ms").max(600_000, "at most 10 minutes"),
      tpotP99Ms: z.number().min(1, "at least 1 ms").max(10_000, "at most 10 s"),
      availabilityPct: z.number().min(90, "90 to 99.999").max(99.999, "90 to 99.999").default(99.9),
    }),
    energy: z.object({ pricePerKwh: z.number().min(0, "0 or more").max(1000, "at most 1,000").default(3.5), pue: z.number().min(1, "1 to 3").max(3, "1 to 3").default(1.3) }).default({ pricePerKwh: 3.5, pue: 1.3 }),
  })
  .strict()
  .refine((i) => !!i.modelVersionId !== !!i.card, { path: ["modelVersionId"], message: "choose a model version or describe a model card, not both" });

export type PlanInput = z.infer<typeof planInput>;

/** An endpoint whose live load the planner's prediction is checked against. */
export const liveCheckInput = z.object({ endpointId: id }).strict();
