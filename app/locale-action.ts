"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { db } from "@/server/db/client";
import { currentActor } from "@/server/auth/page-guard";
import { LOCALES, LOCALE_COOKIE } from "@/server/shared/i18n/locales";

const LocaleInput = z.enum(LOCALES);

/** The language switch: kept on the user (it follows them to any browser) and in a cookie (before sign-in). */
export async function setLocaleAction(value: string): Promise<void> {
  const parsed = LocaleInput.safeParse(value);
  if (!parsed.success) return; // only the switch calls this; anything else changes nothing
  const locale = parsed.data;
  const jar = await cookies();
  jar.set(LOCALE_COOKIE, locale, { path: "/", sameSite: "lax", maxAge: 60 * 60 * 24 * 365 });
  // Kept on the user only while Kule still lets them in: a removed user's leftover session writes nothing.
  const actor = await currentActor();
  if (actor) await db().user.update({ where: { id: actor.userId }, data: { locale } });
}
