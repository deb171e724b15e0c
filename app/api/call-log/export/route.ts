import { guardedRoute } from "@/server/http/route";
import { streamExportInput } from "@/server/calllog/export/schemas";
import { streamExportResponse } from "@/server/calllog/export/direct";

/** GET /api/calllog/export?format=csv&tenantId=…&from=…: the rows streamed straight into the download. */
export const GET = guardedRoute("calllog:export", streamExportInput, streamExportResponse);
