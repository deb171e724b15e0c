import { Guarded } from "@/app/(app)/guarded";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { KvkkPage } from "@/components/kvkk/kvkk-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("kvkk");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="kvkk">
      <KvkkPage canWrite={can(actor.role, "kvkk:write")} />
    </Guarded>
  );
}
