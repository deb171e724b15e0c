import type { Who } from "./helpers";

/**
 * The pages each role opens from its navigation (components/shell/routes.ts), with a detail page
 * or two behind them: what the language and accessibility checks walk.
 */
export const ROLE_PAGES: Record<Exclude<Who, "otherTenant">, string[]> = {
  admin: ["/", "/models", "/endpoints", "/cluster", "/alerts", "/explore", "/tenants", "/usage", "/costs", "/planner", "/api-keys", "/users", "/audit", "/call-log", "/kvkk", "/kvkk/policy", "/applications"],
  operator: ["/", "/endpoints", "/cluster", "/usage"],
  auditor: ["/", "/audit", "/call-log", "/kvkk", "/applications"],
  tenant: ["/", "/usage", "/api-keys", "/call-log", "/applications", "/my-data"],
};
