import { Guarded } from "@/app/(app)/guarded";
import { ApiKeysPanel } from "@/components/keys/api-keys-panel";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";

export const metadata = { title: "API keys" };

export default async function Page() {
  const actor = await requireActor();
  const own = actor.role === "tenant";
  return (
    <Guarded permission="apikey:read" what="API keys">
      <div className="page-head">
        <div>
          <h1>API keys</h1>
          <p>{own ? "Keys your applications use to call the gateway." : "Every tenant's keys, by prefix. Secrets are never stored."}</p>
        </div>
      </div>
      <ApiKeysPanel tenantId={own ? actor.tenantId : null} canWrite={can(actor.role, "apikey:write")} chooseTenant={!own} />
    </Guarded>
  );
}
