import { z } from "zod";

export const listAuditInput = z.object({
  /** Keyset pagination: the smallest id of the previous page. */
  cursor: z.string().regex(/^\d+$/, "an event id").nullish(),
  limit: z.number().int().min(1).max(200).default(50),
  action: z.string().trim().max(80).nullish(),
  actorEmail: z.string().trim().max(200).nullish(),
  targetType: z.string().trim().max(80).nullish(),
  from: z.coerce.date().nullish(),
  to: z.coerce.date().nullish(),
});

export type ListAuditInput = z.infer<typeof listAuditInput>;
