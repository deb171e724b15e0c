"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Permission } from "@/server/auth/permissions";

interface NavItem {
  href: string;
  label: string;
  permission: Permission;
}

// Each entry shows only to roles holding its permission (the same table the server enforces).
const ITEMS: NavItem[] = [
  { href: "/models", label: "Models", permission: "model:read" },
  { href: "/endpoints", label: "Endpoints", permission: "endpoint:read" },
  { href: "/cluster", label: "Cluster", permission: "cluster:read" },
  { href: "/explore", label: "Explore metrics", permission: "metrics:explore" },
  { href: "/tenants", label: "Tenants", permission: "tenant:read" },
  { href: "/usage", label: "Usage & cost", permission: "usage:read" },
  { href: "/costs", label: "Costs", permission: "usage:admin" },
  { href: "/keys", label: "API keys", permission: "apikey:read" },
  { href: "/users", label: "Users & roles", permission: "user:read" },
  { href: "/audit", label: "Audit log", permission: "audit:read" },
  { href: "/calls", label: "Call log", permission: "calllog:read" },
  { href: "/kvkk", label: "KVKK", permission: "kvkk:read" },
];

export function Nav({ permissions }: { permissions: Permission[] }) {
  const path = usePathname();
  const allowed = new Set(permissions);
  return (
    <nav aria-label="Main" style={{ display: "contents" }}>
      <Link href="/" aria-current={path === "/" ? "page" : undefined}>
        Overview
      </Link>
      {ITEMS.filter((i) => allowed.has(i.permission)).map((i) => (
        <Link key={i.href} href={i.href} aria-current={path.startsWith(i.href) ? "page" : undefined}>
          {i.label}
        </Link>
      ))}
    </nav>
  );
}
