import { guardedRoute } from "@/server/http/route";
import { focusExportInput } from "@/server/finops/schemas";
import { streamFocusResponse } from "@/server/finops/focus-export";

/** GET /api/usage/focus?from=2026-11&to=2026-12&format=csv|jsonl[&tenantId=…]: billing data as a FOCUS 1.2 dataset. */
export const GET = guardedRoute("usage:read", focusExportInput, streamFocusResponse);
