import type { ReactNode } from "react";
import { requireActor } from "@/server/auth/page-guard";
import { can, type Permission } from "@/server/auth/permissions";
import { NotAllowed } from "@/components/shell/not-allowed";

/** Renders the page only for roles holding `permission`; others see a clear "not allowed". */
export async function Guarded({ permission, what, children }: { permission: Permission; what: string; children: ReactNode }) {
  const actor = await requireActor();
  if (!can(actor.role, permission)) return <NotAllowed what={what} />;
  return <>{children}</>;
}
