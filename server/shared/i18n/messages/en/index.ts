/**
 * English, the source language: every namespace's messages. Turkish (../tr) must have the same
 * keys (../shape.ts). One file per namespace, named for the pages that use it.
 */
import { common } from "./common.ts";
import { exportFiles } from "./export-files.ts";
import { heads } from "./heads.ts";
import { login } from "./login.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { titles } from "./titles.ts";

export const en = { common, exportFiles, heads, login, pages, shell, titles };
export type Messages = typeof en;
