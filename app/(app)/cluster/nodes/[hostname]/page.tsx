import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("node");

export default async function Page({ params }: { params: Promise<{ hostname: string }> }) {
  const hostname = decodeURIComponent((await params).hostname);
  return (
    <Guarded page="gpuMetrics">
      <PageHead title={`Node ${hostname}`}>
        <Link href="/cluster">Cluster</Link> · every GPU of the node, as dcgm-exporter reports them
      </PageHead>
      <DcgmCharts scope={{ kind: "node", hostname }} />
    </Guarded>
  );
}
