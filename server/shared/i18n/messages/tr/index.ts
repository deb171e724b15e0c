/** Turkish: the English namespaces (../en), translated with the law's own terms for KVKK. */
import type { Messages } from "../en/index.ts";
import { common } from "./common.ts";
import { kvkk } from "./kvkk.ts";
import { login } from "./login.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { titles } from "./titles.ts";
import { trpc } from "./trpc.ts";
import { usage } from "./usage.ts";

export const tr: Messages = { common, kvkk, login, pages, shell, titles, trpc, usage };
