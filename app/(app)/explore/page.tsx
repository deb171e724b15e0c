import { Guarded } from "@/app/(app)/guarded";
import { Explore } from "@/components/metrics/explore";
import { PageHead } from "@/components/ui/page-head";

export const metadata = { title: "Explore metrics" };

export default function Page() {
  return (
    <Guarded page="explore">
      <PageHead title="Explore metrics">Raw PromQL against Kule&apos;s Prometheus: every tenant&apos;s series, so operators and admins only.</PageHead>
      <Explore />
    </Guarded>
  );
}
