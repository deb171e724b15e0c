import { Guarded } from "@/app/(app)/guarded";
import { TenantsPage } from "@/components/tenants/tenants-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";

export const metadata = { title: "Tenants" };

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="tenants">
      <TenantsPage canWrite={can(actor.role, "tenant:write")} />
    </Guarded>
  );
}
