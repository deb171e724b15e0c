import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("gpu");

export default async function Page({ params }: { params: Promise<{ uuid: string }> }) {
  const uuid = decodeURIComponent((await params).uuid);
  return (
    <Guarded page="gpuMetrics">
      <PageHead title={`GPU ${uuid}`}>
        <Link href="/cluster">Cluster</Link> · the whole GPU and each MIG instance, as dcgm-exporter reports them
      </PageHead>
      <DcgmCharts scope={{ kind: "gpu", uuid }} />
    </Guarded>
  );
}
