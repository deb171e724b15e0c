import fs from "node:fs";
import { Readable } from "node:stream";
import { createRequestContext } from "@/server/trpc/request-context";
import { downloadExport } from "@/server/calllog/export/download";

/** GET /api/exports/<id>[?part=manifest]: a finished export's file or its manifest, for whoever may see the export. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const ctx = await createRequestContext(req.headers);
  const part = new URL(req.url).searchParams.get("part") === "manifest" ? "manifest" : "data";
  const res = await downloadExport(ctx, (await params).id, part);
  if ("status" in res) return new Response(res.message, { status: res.status });
  const body = Readable.toWeb(fs.createReadStream(res.path)) as ReadableStream;
  return new Response(body, { headers: { "content-type": res.contentType, "content-length": String(res.size), "content-disposition": `attachment; filename="${res.fileName}"` } });
}
