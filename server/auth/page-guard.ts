import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import { db } from "../db/client.ts";
import { auth } from "./next-auth.ts";
import { loadActor } from "../trpc/context.ts";
import type { Actor } from "./actor.ts";

/** The signed-in actor for a page (once per request); signed-out visitors go to the login page. */
export const requireActor = cache(async (): Promise<Actor> => {
  const session = await auth();
  const actor = await loadActor(db(), session?.user?.id);
  if (!actor) redirect("/login");
  return actor;
});
