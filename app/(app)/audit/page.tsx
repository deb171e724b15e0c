import { Guarded } from "@/app/(app)/guarded";
import { AuditPage } from "@/components/audit/audit-page";

export const metadata = { title: "Audit log" };

export default function Page() {
  return (
    <Guarded page="audit">
      <AuditPage />
    </Guarded>
  );
}
