import { Guarded } from "@/app/(app)/guarded";
import { CostsPage } from "@/components/usage/costs-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("costs");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="costs">
      <CostsPage canEditPricing={can(actor.role, "billing:write")} />
    </Guarded>
  );
}
