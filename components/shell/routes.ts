import type { Permission } from "@/server/auth/permissions";

export interface PageRoute {
  href: string;
  /** Who may open it: the same table the server enforces (server/auth/permissions.ts). */
  permission: Permission;
  /** Listed in the navigation, in this order. */
  nav: boolean;
}

/**
 * The app's pages (their names in each language are the `pages` messages under the same key):
 * the navigation lists the ones marked `nav` to roles holding their permission, and each page's guard (app/(app)/guarded.tsx) reads its permission from here, so a link is
 * never shown to a role the page would refuse.
 */
export const PAGES = {
  models: { href: "/models", permission: "model:read", nav: true },
  endpoints: { href: "/endpoints", permission: "endpoint:read", nav: true },
  cluster: { href: "/cluster", permission: "cluster:read", nav: true },
  gpuMetrics: { href: "/cluster", permission: "metrics:read", nav: false },
  alerts: { href: "/alerts", permission: "alert:read", nav: true },
  explore: { href: "/explore", permission: "metrics:explore", nav: true },
  tenants: { href: "/tenants", permission: "tenant:read", nav: true },
  usage: { href: "/usage", permission: "usage:read", nav: true },
  costs: { href: "/costs", permission: "usage:admin", nav: true },
  planner: { href: "/planner", permission: "capacity:plan", nav: true },
  apiKeys: { href: "/api-keys", permission: "api-key:read", nav: true },
  users: { href: "/users", permission: "user:read", nav: true },
  audit: { href: "/audit", permission: "audit:read", nav: true },
  callLog: { href: "/call-log", permission: "call-log:read", nav: true },
  kvkk: { href: "/kvkk", permission: "kvkk:read", nav: true },
  applications: { href: "/applications", permission: "application:read", nav: true },
  controller: { href: "/my-data", permission: "kvkk:controller", nav: true },
  kvkkPolicy: { href: "/kvkk/policy", permission: "kvkk:read", nav: false },
} as const satisfies Record<string, PageRoute>;

export type PageName = keyof typeof PAGES;

export const NAV_PAGES = (Object.keys(PAGES) as PageName[]).filter((name) => PAGES[name].nav).map((name) => ({ name, ...PAGES[name] }));
