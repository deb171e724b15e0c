import type { Permission } from "@/server/auth/permissions";

export interface PageRoute {
  href: string;
  label: string;
  /** Who may open it: the same table the server enforces (server/auth/permissions.ts). */
  permission: Permission;
  /** What the "Not allowed" page says the role cannot open. */
  what: string;
  /** Listed in the navigation, in this order. */
  nav: boolean;
}

/**
 * The app's pages: the navigation lists the ones marked `nav` to roles holding their permission,
 * and each page's guard (app/(app)/guarded.tsx) reads its permission from here, so a link is
 * never shown to a role the page would refuse.
 */
export const PAGES = {
  models: { href: "/models", label: "Models", permission: "model:read", what: "the model registry", nav: true },
  endpoints: { href: "/endpoints", label: "Endpoints", permission: "endpoint:read", what: "endpoints", nav: true },
  cluster: { href: "/cluster", label: "Cluster", permission: "cluster:read", what: "the cluster", nav: true },
  gpuMetrics: { href: "/cluster", label: "GPU metrics", permission: "metrics:read", what: "GPU metrics", nav: false },
  alerts: { href: "/alerts", label: "Alerts", permission: "alert:read", what: "alerts, receivers and silences", nav: true },
  explore: { href: "/explore", label: "Explore metrics", permission: "metrics:explore", what: "raw PromQL", nav: true },
  tenants: { href: "/tenants", label: "Tenants", permission: "tenant:read", what: "the tenant list", nav: true },
  usage: { href: "/usage", label: "Usage & cost", permission: "usage:read", what: "usage and cost", nav: true },
  costs: { href: "/costs", label: "Costs", permission: "usage:admin", what: "costs", nav: true },
  apiKeys: { href: "/api-keys", label: "API keys", permission: "api-key:read", what: "API keys", nav: true },
  users: { href: "/users", label: "Users & roles", permission: "user:read", what: "users and roles", nav: true },
  audit: { href: "/audit", label: "Audit log", permission: "audit:read", what: "the audit log", nav: true },
  callLog: { href: "/call-log", label: "Call log", permission: "call-log:read", what: "the call log", nav: true },
  kvkk: { href: "/kvkk", label: "KVKK", permission: "kvkk:read", what: "the KVKK records", nav: true },
  applications: { href: "/applications", label: "Applications", permission: "application:read", what: "data subjects' applications", nav: true },
  controller: { href: "/my-data", label: "Your data (KVKK)", permission: "kvkk:controller", what: "your data's processing record", nav: true },
  kvkkPolicy: { href: "/kvkk/policy", label: "Storage and destruction policy", permission: "kvkk:read", what: "the storage and destruction policy", nav: false },
} as const satisfies Record<string, PageRoute>;

export type PageName = keyof typeof PAGES;

export const NAV_PAGES: PageRoute[] = Object.values(PAGES).filter((p) => p.nav);
