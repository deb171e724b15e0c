import { Guarded } from "@/app/(app)/guarded";
import { ClusterPage } from "@/components/cluster/cluster-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("cluster");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="cluster">
      <ClusterPage canWrite={can(actor.role, "cluster:write")} />
    </Guarded>
  );
}
