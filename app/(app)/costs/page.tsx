import { Guarded } from "@/app/(app)/guarded";
import { CostsPage } from "@/components/usage/costs-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";

export const metadata = { title: "Costs" };

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="costs">
      <CostsPage canEditPricing={can(actor.role, "billing:write")} />
    </Guarded>
  );
}
