import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";
import { serverTranslator } from "@/server/i18n/request-locale";

export const generateMetadata = titled("gpu");

export default async function Page({ params }: { params: Promise<{ uuid: string }> }) {
  const uuid = decodeURIComponent((await params).uuid);
  const t = await serverTranslator();
  return (
    <Guarded page="gpuMetrics">
      <PageHead title={t("heads.gpu.title", { uuid })}>
        <Link href="/cluster">{t("heads.cluster")}</Link> · {t("heads.gpu.intro")}
      </PageHead>
      <DcgmCharts scope={{ kind: "gpu", uuid }} />
    </Guarded>
  );
}
