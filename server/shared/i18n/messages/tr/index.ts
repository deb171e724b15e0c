/** Turkish: the English namespaces (../en), translated with the law's own terms for KVKK. */
import type { Messages } from "../en/index.ts";
import { common } from "./common.ts";
import { exportFiles } from "./export-files.ts";
import { heads } from "./heads.ts";
import { login } from "./login.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { titles } from "./titles.ts";

export const tr: Messages = { common, exportFiles, heads, login, pages, shell, titles };
