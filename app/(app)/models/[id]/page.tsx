import { Guarded } from "@/app/(app)/guarded";
import { ModelDetail } from "@/components/models/model-detail";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("model");

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requireActor();
  return (
    <Guarded page="models">
      <ModelDetail id={id} canWrite={can(actor.role, "model:write")} />
    </Guarded>
  );
}
