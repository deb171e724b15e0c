import type { NextRequest } from "next/server";
import { handlers } from "@/server/auth/next-auth";
import { publicRequest } from "@/server/auth/public-request";

// next-auth sees the request as the browser addressed it (server/auth/public-request.ts).
export const GET = async (req: NextRequest) => handlers.GET((await publicRequest(req)) as NextRequest);
export const POST = async (req: NextRequest) => handlers.POST((await publicRequest(req)) as NextRequest);
