import { z } from "zod";
import { id } from "../schemas/common.ts";
import { createEndpointInput } from "./schemas.ts";

/** The SLO fields as the create form has them, plus the revision the caller's view was based on. */
export const updateSloInput = createEndpointInput
  .pick({ sloAvailabilityPct: true, sloP99LatencyMs: true, sloTtftMs: true })
  .extend({ endpointId: id, expectedRevision: z.number().int() });

export type UpdateSloInput = z.infer<typeof updateSloInput>;
