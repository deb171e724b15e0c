import type { ReactNode } from "react";
import { requireActor } from "@/server/auth/page-guard";
import { permissionsOf } from "@/server/auth/permissions";
import { serverTranslator } from "@/server/i18n/request-locale";
import { Nav } from "@/components/shell/nav";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { logoutAction } from "../login/actions";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await requireActor();
  const t = await serverTranslator();
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          Kule<small>{t("shell.tagline")}</small>
        </div>
        <Nav permissions={permissionsOf(actor.role)} />
        <div className="who">
          <div data-testid="who">{actor.email}</div>
          <div className="badge">{t(`shell.roles.${actor.role}`)}</div>
          <form action={logoutAction}>
            <button type="submit">{t("shell.signOut")}</button>
          </form>
          <LanguageSwitch />
        </div>
      </aside>
      <main className="main">{children}</main>
    </div>
  );
}
