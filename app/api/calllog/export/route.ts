import { createRequestContext } from "@/server/trpc/request-context";
import { streamExportResponse } from "@/server/calllog/export/direct";

/** GET /api/calllog/export?format=csv&tenantId=…&from=…: the rows streamed straight into the download. */
export async function GET(req: Request) {
  const ctx = await createRequestContext(req.headers);
  return streamExportResponse(ctx, new URL(req.url).searchParams);
}
