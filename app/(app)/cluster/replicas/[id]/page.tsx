import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";
import { serverTranslator } from "@/server/i18n/request-locale";

export const generateMetadata = titled("replicaGpus");

/** The GPUs of one replica read together: a tensor/pipeline-parallel group's, or its one GPU. */
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = decodeURIComponent((await params).id);
  const t = await serverTranslator();
  return (
    <Guarded page="gpuMetrics">
      <PageHead title={t("heads.replicaGpus.title", { name: id })}>
        <Link href="/cluster">{t("heads.cluster")}</Link> · {t("heads.replicaGpus.intro")}
      </PageHead>
      <DcgmCharts scope={{ kind: "replica", replicaId: id }} />
    </Guarded>
  );
}
