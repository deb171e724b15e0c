import { z } from "zod";

/**
 * A deploy's layout, as the deploy input takes it and as the capacity planner's link to the deploy
 * form carries it: shared so the form fills only what the deploy would accept.
 */

/** Tensor parallel within a node × pipeline stages over nodes. */
export const splitInput = z
  .object({
    tensor: z.number().int("a whole number").min(1, "1 to 8 GPUs of a node").max(8, "1 to 8 GPUs of a node"),
    pipeline: z.number().int("a whole number").min(1, "1 to 16 stages").max(16, "1 to 16 stages"),
  })
  .strict();

export const replicaCount = z.number().int("a whole number").min(1, "at least 1 replica").max(16, "at most 16 replicas");

export const deployLayout = z.object({ modelVersionId: z.string().min(1, "required").max(64), replicas: replicaCount, parallelism: splitInput });
export type DeployLayout = z.infer<typeof deployLayout>;
