import { Guarded } from "@/app/(app)/guarded";
import { PlannerPage } from "@/components/planner/planner-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("capacityPlanner");

export default function Page() {
  return (
    <Guarded page="planner">
      <PlannerPage />
    </Guarded>
  );
}
