import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";

export const metadata = { title: "GPU" };

export default async function Page({ params }: { params: Promise<{ uuid: string }> }) {
  const uuid = decodeURIComponent((await params).uuid);
  return (
    <Guarded permission="metrics:read" what="GPU metrics">
      <div className="page-head">
        <div>
          <h1>GPU {uuid}</h1>
          <p>
            <Link href="/cluster">Cluster</Link> · the whole GPU and each MIG instance, as dcgm-exporter reports them
          </p>
        </div>
      </div>
      <DcgmCharts scope={{ kind: "gpu", uuid }} />
    </Guarded>
  );
}
