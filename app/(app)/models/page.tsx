import { Guarded } from "@/app/(app)/guarded";
import { ModelsPage } from "@/components/models/models-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("models");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="models">
      <ModelsPage canWrite={can(actor.role, "model:write")} />
    </Guarded>
  );
}
