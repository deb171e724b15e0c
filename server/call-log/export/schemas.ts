import { z } from "zod";
import { callLogFilter } from "../schemas.ts";
import { locale } from "../../schemas/common.ts";

export const exportFormat = z.enum(["csv", "jsonl"]);

/** `locale`: the CSV header's language (the JSONL field names never change). */
export const startExportInput = z.object({ filter: callLogFilter, format: exportFormat, locale });
export type StartExportInput = z.infer<typeof startExportInput>;

export const exportIdInput = z.object({ id: z.string().trim().min(1).max(40).regex(/^\w+$/, "an export id") });

/** GET /api/exports/<id>[?part=manifest]. */
export const downloadExportInput = exportIdInput.extend({ part: z.enum(["data", "manifest"]).default("data") });
export type DownloadExportInput = z.infer<typeof downloadExportInput>;

/** GET /api/call-log/export?format=csv&…: a filter and a format. */
export const streamExportInput = callLogFilter.extend({ format: exportFormat.default("csv"), locale });
export type StreamExportInput = z.infer<typeof streamExportInput>;
export type ExportIdInput = z.infer<typeof exportIdInput>;
