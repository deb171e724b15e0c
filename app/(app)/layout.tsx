import type { ReactNode } from "react";
import { requireActor } from "@/server/auth/page-guard";
import { permissionsOf } from "@/server/auth/permissions";
import { Nav } from "@/components/shell/nav";
import { logoutAction } from "../login/actions";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await requireActor();
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          Kule<small>inference control plane</small>
        </div>
        <Nav permissions={permissionsOf(actor.role)} />
        <div className="who">
          <div data-testid="who">{actor.email}</div>
          <div className="badge">{actor.role}</div>
          <form action={logoutAction}>
            <button type="submit">Sign out</button>
          </form>
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}
