/** Turkish: the English namespaces (../en), translated with the law's own terms for KVKK. */
import type { Messages } from "../en/index.ts";
import { apiKeys } from "./api-keys.ts";
import { audit } from "./audit.ts";
import { callLog } from "./call-log.ts";
import { common } from "./common.ts";
import { exportFiles } from "./export-files.ts";
import { heads } from "./heads.ts";
import { kvkk } from "./kvkk.ts";
import { login } from "./login.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { tenants } from "./tenants.ts";
import { titles } from "./titles.ts";
import { trpc } from "./trpc.ts";
import { usage } from "./usage.ts";
import { users } from "./users.ts";

export const tr: Messages = { apiKeys, audit, callLog, common, exportFiles, heads, kvkk, login, pages, shell, tenants, titles, trpc, usage, users };
