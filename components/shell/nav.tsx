"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Permission } from "@/server/auth/permissions";
import { NAV_PAGES } from "./routes";

/** Each entry shows only to roles holding its page's permission (the same table the server enforces). */
export function Nav({ permissions }: { permissions: Permission[] }) {
  const path = usePathname();
  const allowed = new Set(permissions);
  return (
    <nav aria-label="Main" style={{ display: "contents" }}>
      <Link href="/" aria-current={path === "/" ? "page" : undefined}>
        Overview
      </Link>
      {NAV_PAGES.filter((p) => allowed.has(p.permission)).map((p) => (
        <Link key={p.href} href={p.href} aria-current={path.startsWith(p.href) ? "page" : undefined}>
          {p.label}
        </Link>
      ))}
    </nav>
  );
}
