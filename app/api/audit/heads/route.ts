import { z } from "zod";
import { guardedRoute } from "@/server/http/route";
import { downloadHeads } from "@/server/audit/heads-download";

/** GET /api/audit/heads: the signed chain heads and the seal's public key, for auditors to keep. */
export const GET = guardedRoute("audit:verify", z.object({}), (ctx) => downloadHeads(ctx));
