import { Guarded } from "@/app/(app)/guarded";
import { AuditPage } from "@/components/audit/audit-page";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("auditLog");

export default function Page() {
  return (
    <Guarded page="audit">
      <AuditPage />
    </Guarded>
  );
}
