import { Guarded } from "@/app/(app)/guarded";
import { Explore } from "@/components/metrics/explore";

export const metadata = { title: "Explore metrics" };

export default function Page() {
  return (
    <Guarded permission="metrics:explore" what="raw PromQL">
      <div className="page-head">
        <div>
          <h1>Explore metrics</h1>
          <p>Raw PromQL against Kule&apos;s Prometheus: every tenant&apos;s series, so operators and admins only.</p>
        </div>
      </div>
      <Explore />
    </Guarded>
  );
}
