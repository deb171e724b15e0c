"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "use-intl";
import type { Permission } from "@/server/auth/permissions";
import { NAV_PAGES } from "./routes";

/** Each entry shows only to roles holding its page's permission (the same table the server enforces). */
export function Nav({ permissions }: { permissions: Permission[] }) {
  const path = usePathname();
  const t = useTranslations();
  const allowed = new Set(permissions);
  return (
    <nav aria-label={t("shell.mainNav")} style={{ display: "contents" }}>
      <Link href="/" aria-current={path === "/" ? "page" : undefined}>
        {t("shell.overview")}
      </Link>
      {NAV_PAGES.filter((p) => allowed.has(p.permission)).map((p) => (
        <Link key={p.href} href={p.href} aria-current={path.startsWith(p.href) ? "page" : undefined}>
          {t(`pages.${p.name}.label`)}
        </Link>
      ))}
    </nav>
  );
}
