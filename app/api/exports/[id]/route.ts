import { guardedRoute } from "@/server/http/route";
import { downloadExportInput } from "@/server/call-log/export/schemas";
import { downloadExport } from "@/server/call-log/export/download";

/** GET /api/exports/<id>[?part=manifest]: a finished export's file or its manifest, for whoever may see the export. */
export const GET = guardedRoute("call-log:export", downloadExportInput, downloadExport);
