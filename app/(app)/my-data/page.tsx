import { Guarded } from "@/app/(app)/guarded";
import { ControllerPage } from "@/components/kvkk/controller-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("yourDataKvkk");

export default function Page() {
  return (
    <Guarded page="controller">
      <ControllerPage />
    </Guarded>
  );
}
