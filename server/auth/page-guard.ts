import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import { db } from "../db/client.ts";
import { auth } from "./next-auth.ts";
import { loadActor } from "../trpc/context.ts";
import type { Actor } from "./actor.ts";

/** The signed-in actor of this request, or null (loaded once per request: the layout's language reads it too). */
export const currentActor = cache(async (): Promise<Actor | null> => loadActor(db(), (await auth())?.user?.id));

/** The signed-in actor for a page; signed-out visitors go to the login page. */
export const requireActor = cache(async (): Promise<Actor> => {
  const actor = await currentActor();
  if (!actor) redirect("/login");
  return actor;
});
