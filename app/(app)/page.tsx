import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { StaffOverview, TenantOverview } from "@/components/overview/overview";

export const metadata = { title: "Overview" };

export default async function Page() {
  const actor = await requireActor();
  if (actor.role === "tenant" && actor.tenantId) return <TenantOverview tenantId={actor.tenantId} />;
  return <StaffOverview canSeeEndpoints={can(actor.role, "endpoint:read")} />;
}
