import type { ReactNode } from "react";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { NotAllowed } from "@/components/shell/not-allowed";
import { PAGES, type PageName } from "@/components/shell/routes";

/** Renders the page only for roles holding its permission (components/shell/routes.ts); others see a clear "not allowed". */
export async function Guarded({ page, children }: { page: PageName; children: ReactNode }) {
  const actor = await requireActor();
  if (!can(actor.role, PAGES[page].permission)) return <NotAllowed page={page} />;
  return <>{children}</>;
}
