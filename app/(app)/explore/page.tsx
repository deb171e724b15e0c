import { Guarded } from "@/app/(app)/guarded";
import { Explore } from "@/components/metrics/explore";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";
import { serverTranslator } from "@/server/i18n/request-locale";

export const generateMetadata = titled("exploreMetrics");

export default async function Page() {
  const t = await serverTranslator();
  return (
    <Guarded page="explore">
      <PageHead title={t("heads.explore.title")}>{t("heads.explore.intro")}</PageHead>
      <Explore />
    </Guarded>
  );
}
