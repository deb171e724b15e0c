import { Guarded } from "@/app/(app)/guarded";
import { requireActor } from "@/server/auth/page-guard";
import { can } from "@/server/auth/permissions";
import { AlertTable } from "@/components/alerts/alert-table";
import { ReceiversPanel } from "@/components/alerts/receivers-panel";
import { SilencesPanel } from "@/components/alerts/silences-panel";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";
import { serverTranslator } from "@/server/i18n/request-locale";

export const generateMetadata = titled("alerts");

export default async function Page() {
  const actor = await requireActor();
  const t = await serverTranslator();
  const canWrite = can(actor.role, "alert:write");
  return (
    <Guarded page="alerts">
      <PageHead title={t("heads.alerts.title")}>{t("heads.alerts.intro")}</PageHead>
      <AlertTable title={t("heads.alerts.history")} />
      <ReceiversPanel canWrite={canWrite} />
      <SilencesPanel canWrite={canWrite} />
    </Guarded>
  );
}
