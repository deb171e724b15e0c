/** Turkish: the English namespaces (../en), translated with the law's own terms for KVKK. */
import type { Messages } from "../en/index.ts";
import { alerts } from "./alerts.ts";
import { cluster } from "./cluster.ts";
import { common } from "./common.ts";
import { endpoints } from "./endpoints.ts";
import { exportFiles } from "./export-files.ts";
import { heads } from "./heads.ts";
import { login } from "./login.ts";
import { metrics } from "./metrics.ts";
import { models } from "./models.ts";
import { overview } from "./overview.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { titles } from "./titles.ts";

export const tr: Messages = { alerts, cluster, common, endpoints, exportFiles, heads, login, metrics, models, overview, pages, shell, titles };
