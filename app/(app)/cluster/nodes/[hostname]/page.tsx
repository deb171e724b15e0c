import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";
import { serverTranslator } from "@/server/i18n/request-locale";

export const generateMetadata = titled("node");

export default async function Page({ params }: { params: Promise<{ hostname: string }> }) {
  const hostname = decodeURIComponent((await params).hostname);
  const t = await serverTranslator();
  return (
    <Guarded page="gpuMetrics">
      <PageHead title={t("heads.node.title", { hostname })}>
        <Link href="/cluster">{t("heads.cluster")}</Link> · {t("heads.node.intro")}
      </PageHead>
      <DcgmCharts scope={{ kind: "node", hostname }} />
    </Guarded>
  );
}
