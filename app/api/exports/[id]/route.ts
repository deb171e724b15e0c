import { guardedRoute } from "@/server/http/route";
import { downloadExportInput } from "@/server/calllog/export/schemas";
import { downloadExport } from "@/server/calllog/export/download";

/** GET /api/exports/<id>[?part=manifest]: a finished export's file or its manifest, for whoever may see the export. */
export const GET = guardedRoute("calllog:export", downloadExportInput, downloadExport);
