import { Guarded } from "@/app/(app)/guarded";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { PolicyPage } from "@/components/kvkk/policy-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("storageAndDestructionPolicy");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="kvkkPolicy">
      <PolicyPage canWrite={can(actor.role, "kvkk:write")} />
    </Guarded>
  );
}
