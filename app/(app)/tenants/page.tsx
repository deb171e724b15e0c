import { Guarded } from "@/app/(app)/guarded";
import { TenantsPage } from "@/components/tenants/tenants-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("tenants");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="tenants">
      <TenantsPage canWrite={can(actor.role, "tenant:write")} />
    </Guarded>
  );
}
