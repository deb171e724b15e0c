import { Guarded } from "@/app/(app)/guarded";
import { ControllerPage } from "@/components/kvkk/controller-page";

export const metadata = { title: "Your data (KVKK)" };

export default function Page() {
  return (
    <Guarded page="controller">
      <ControllerPage />
    </Guarded>
  );
}
