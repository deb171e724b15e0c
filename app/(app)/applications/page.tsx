import { Guarded } from "@/app/(app)/guarded";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { ApplicationsPage } from "@/components/kvkk/applications-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("dataSubjectsApplications");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="applications">
      <ApplicationsPage canWrite={can(actor.role, "application:write")} staff={actor.role !== "tenant"} />
    </Guarded>
  );
}
