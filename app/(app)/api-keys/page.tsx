import { Guarded } from "@/app/(app)/guarded";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";
import { serverTranslator } from "@/server/i18n/request-locale";

export const generateMetadata = titled("apiKeys");

export default async function Page() {
  const actor = await requireActor();
  const t = await serverTranslator();
  const own = actor.role === "tenant";
  return (
    <Guarded page="apiKeys">
      <PageHead title={t("heads.apiKeys.title")}>{own ? t("heads.apiKeys.own") : t("heads.apiKeys.all")}</PageHead>
      <ApiKeysPanel tenantId={own ? actor.tenantId : null} canWrite={can(actor.role, "api-key:write")} chooseTenant={!own} />
    </Guarded>
  );
}
