import { TenantDetail } from "@/components/tenants/tenant-detail";
import { NotAllowed } from "@/components/shell/not-allowed";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("tenant");

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requireActor();
  // Staff see every tenant; a tenant user only its own (others are "not found" in the data layer).
  if (!can(actor.role, "tenant:read") && actor.tenantId !== id) return <NotAllowed page="otherTenant" />;
  return <TenantDetail id={id} canReadKeys={can(actor.role, "api-key:read")} canWriteKeys={can(actor.role, "api-key:write")} canWriteTenant={can(actor.role, "tenant:write")} />;
}
