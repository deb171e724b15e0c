import { guardedRoute } from "@/server/http/route";
import { streamExportInput } from "@/server/call-log/export/schemas";
import { streamExportResponse } from "@/server/call-log/export/direct";

/** GET /api/call-log/export?format=csv&tenantId=…&from=…: the rows streamed straight into the download. */
export const GET = guardedRoute("call-log:export", streamExportInput, streamExportResponse);
