import { Guarded } from "@/app/(app)/guarded";
import { EndpointDetail } from "@/components/endpoints/endpoint-detail";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("endpoint");

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requireActor();
  return (
    <Guarded page="endpoints">
      <EndpointDetail id={id} canWrite={can(actor.role, "endpoint:write")} canPlan={can(actor.role, "capacity:plan")} />
    </Guarded>
  );
}
