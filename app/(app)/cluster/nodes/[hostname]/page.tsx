import Link from "next/link";
import { Guarded } from "@/app/(app)/guarded";
import { DcgmCharts } from "@/components/metrics/dcgm-charts";

export const metadata = { title: "Node" };

export default async function Page({ params }: { params: Promise<{ hostname: string }> }) {
  const hostname = decodeURIComponent((await params).hostname);
  return (
    <Guarded permission="metrics:read" what="GPU metrics">
      <div className="page-head">
        <div>
          <h1>Node {hostname}</h1>
          <p>
            <Link href="/cluster">Cluster</Link> · every GPU of the node, as dcgm-exporter reports them
          </p>
        </div>
      </div>
      <DcgmCharts scope={{ kind: "node", hostname }} />
    </Guarded>
  );
}
