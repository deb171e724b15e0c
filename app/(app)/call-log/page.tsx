import { Guarded } from "@/app/(app)/guarded";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { CallLogPage } from "@/components/call-log/call-log-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("callLog");

export default async function Page() {
  const actor = await requireActor();
  return (
    <Guarded page="callLog">
      <CallLogPage staff={actor.role !== "tenant"} canVerify={can(actor.role, "audit:verify")} />
    </Guarded>
  );
}
