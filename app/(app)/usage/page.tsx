import { Guarded } from "@/app/(app)/guarded";
import { UsagePage } from "@/components/usage/usage-page";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("usageAndCost");

export default async function Page({ searchParams }: { searchParams: Promise<{ tenant?: string }> }) {
  const { tenant } = await searchParams;
  const actor = await requireActor();
  const staff = actor.role !== "tenant";
  return (
    <Guarded page="usage">
      <UsagePage tenantId={staff ? tenant : undefined} staff={staff} canSetBudget={can(actor.role, "budget:write")} />
    </Guarded>
  );
}
