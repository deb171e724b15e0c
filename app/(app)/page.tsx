import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { StaffOverview, TenantOverview } from "@/components/overview/overview";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("overview");

export default async function Page() {
  const actor = await requireActor();
  if (actor.role === "tenant" && actor.tenantId) return <TenantOverview tenantId={actor.tenantId} />;
  return <StaffOverview canSeeEndpoints={can(actor.role, "endpoint:read")} />;
}
