import { Guarded } from "@/app/(app)/guarded";
import { Explore } from "@/components/metrics/explore";
import { PageHead } from "@/components/ui/page-head";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("exploreMetrics");

export default function Page() {
  return (
    <Guarded page="explore">
      <PageHead title="Explore metrics">Raw PromQL against Kule&apos;s Prometheus: every tenant&apos;s series, so operators and admins only.</PageHead>
      <Explore />
    </Guarded>
  );
}
