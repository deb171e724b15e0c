import { Guarded } from "@/app/(app)/guarded";
import { EndpointsPage } from "@/components/endpoints/endpoints-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";

export const metadata = { title: "Endpoints" };

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="endpoints">
      <EndpointsPage canWrite={can(actor.role, "endpoint:write")} />
    </Guarded>
  );
}
