/**
 * English, the source language: every namespace's messages. Turkish (../tr) must have the same
 * keys (../shape.ts). One file per namespace, named for the pages that use it.
 */
import { common } from "./common.ts";
import { kvkk } from "./kvkk.ts";
import { login } from "./login.ts";
import { pages } from "./pages.ts";
import { shell } from "./shell.ts";
import { titles } from "./titles.ts";
import { trpc } from "./trpc.ts";
import { usage } from "./usage.ts";

export const en = { common, kvkk, login, pages, shell, titles, trpc, usage };
export type Messages = typeof en;
