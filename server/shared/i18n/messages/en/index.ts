/**
 * English, the source language: every namespace's messages. Turkish (../tr) must have the same
 * keys (../shape.ts). One file per namespace, named for the pages that use it.
 */
import { alerts } from "./alerts.ts";
import { apiKeys } from "./api-keys.ts";
import { audit } from "./audit.ts";
import { callLog } from "./call-log.ts";
import { cluster } from "./cluster.ts";
import { common } from "./common.ts";
import { endpoints } from "./endpoints.ts";
import { exportFiles } from "./export-files.ts";
import { heads } from "./heads.ts";
import { kvkk } from "./kvkk.ts";
import { kvkkController } from "./kvkk-controller.ts";
import { kvkkTexts } from "./kvkk-texts.ts";
import { login } from "./login.ts";
import { metrics } from "./metrics.ts";
import { models } from "./models.ts";
import { overview } from "./overview.ts";
import { planner } from "./planner.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { tenants } from "./tenants.ts";
import { titles } from "./titles.ts";
import { trpc } from "./trpc.ts";
import { usage } from "./usage.ts";
import { users } from "./users.ts";

export const en = { alerts, apiKeys, audit, callLog, cluster, common, endpoints, exportFiles, heads, kvkk, kvkkController, kvkkTexts, login, metrics, models, overview, pages, planner, shell, tenants, titles, trpc, usage, users };
export type Messages = typeof en;
