"use client";

import Link from "next/link";
import { useTranslations } from "use-intl";
import { PageHead } from "@/components/ui/page-head";
import { RetentionPanel } from "./retention-panel";
import { DestructionRecords } from "./destruction-records";
import { SubjectRequest } from "./subject-request";
import { ResidencyPanel } from "./residency-panel";
import { SafeguardsPanel } from "./safeguards-panel";
import { BreachesPanel } from "./breaches-panel";
import { KeysPanel } from "./keys-panel";
import { SpecialPanel } from "./special-panel";
import { Legal } from "@/components/ui/legal";

export function KvkkPage({ canWrite }: { canWrite: boolean }) {
  const t = useTranslations("kvkk.page");
  return (
    <>
      <PageHead title={t("title")}>
        <Legal id="kvkk.page.intro" /> <Link href="/kvkk/policy">{t("policyLink")}</Link>
      </PageHead>
      <BreachesPanel canWrite={canWrite} />
      <SafeguardsPanel canWrite={canWrite} />
      <ResidencyPanel canWrite={canWrite} />
      <SpecialPanel canWrite={canWrite} />
      <KeysPanel canWrite={canWrite} />
      <RetentionPanel canWrite={canWrite} />
      <SubjectRequest canDestroy={canWrite} />
      <DestructionRecords />
    </>
  );
}
