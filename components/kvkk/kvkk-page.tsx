"use client";

import Link from "next/link";
import { PageHead } from "@/components/ui/page-head";
import { RetentionPanel } from "./retention-panel";
import { DestructionRecords } from "./destruction-records";
import { SubjectRequest } from "./subject-request";
import { ResidencyPanel } from "./residency-panel";
import { SafeguardsPanel } from "./safeguards-panel";
import { BreachesPanel } from "./breaches-panel";

export function KvkkPage({ canWrite }: { canWrite: boolean }) {
  return (
    <>
      <PageHead title="KVKK">Law 6698 on the Protection of Personal Data (KVKK) for every tenant: transfers abroad and their safeguards (Art. 9), where calls were served, retention and destruction (Art. 7 and the 2017 Regulation), data subjects&apos; applications (Art. 11 and 13). <Link href="/kvkk/policy">Storage and destruction policy</Link>
      </PageHead>
      <BreachesPanel canWrite={canWrite} />
      <SafeguardsPanel canWrite={canWrite} />
      <ResidencyPanel canWrite={canWrite} />
      <RetentionPanel canWrite={canWrite} />
      <SubjectRequest canDestroy={canWrite} />
      <DestructionRecords />
    </>
  );
}
