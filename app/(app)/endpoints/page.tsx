import { Guarded } from "@/app/(app)/guarded";
import { EndpointsPage } from "@/components/endpoints/endpoints-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("endpoints");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="endpoints">
      <EndpointsPage canWrite={can(actor.role, "endpoint:write")} />
    </Guarded>
  );
}
