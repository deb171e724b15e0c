import { z } from "zod";
import { callLogFilter } from "../schemas.ts";

export const exportFormat = z.enum(["csv", "jsonl"]);

export const startExportInput = z.object({ filter: callLogFilter, format: exportFormat });
export type StartExportInput = z.infer<typeof startExportInput>;

export const exportIdInput = z.object({ id: z.string().trim().min(1).max(40).regex(/^\w+$/, "an export id") });
