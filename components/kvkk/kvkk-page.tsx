"use client";

import { PageHead } from "@/components/ui/page-head";
import { RetentionPanel } from "./retention-panel";
import { DestructionRecords } from "./destruction-records";
import { SubjectRequest } from "./subject-request";
import { ResidencyPanel } from "./residency-panel";

export function KvkkPage({ canWrite }: { canWrite: boolean }) {
  return (
    <>
      <PageHead title="KVKK">Retention, destruction records, data subjects&apos; requests and where each tenant&apos;s calls were served (Law 6698, Articles 9 and 12).</PageHead>
      <ResidencyPanel />
      <RetentionPanel canWrite={canWrite} />
      <SubjectRequest canDestroy={canWrite} />
      <DestructionRecords />
    </>
  );
}
