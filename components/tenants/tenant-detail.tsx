"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { useTRPC } from "@/components/trpc/client";
import { useFormat } from "@/components/i18n/use-format";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { PageHead } from "@/components/ui/page-head";
import { LimitsSummary, OffboardForm, TenantSettingsForm } from "./tenant-settings";

export function TenantDetail({ id, canReadKeys, canWriteKeys, canWriteTenant }: { id: string; canReadKeys: boolean; canWriteKeys: boolean; canWriteTenant: boolean }) {
  const trpc = useTRPC();
  const tr = useTranslations("tenants");
  const ts = useTranslations("kvkk.special");
  const fmt = useFormat();
  const [editing, setEditing] = useState<"settings" | "offboard" | null>(null);
  const tenant = useQuery(trpc.tenant.get.queryOptions({ id }, PANEL_QUERY));
  const gate = queryGate(
    tenant,
    tr("detail.loading"),
    <Empty title={tr("detail.notFound")}>
      <Link href="/tenants">{tr("detail.back")}</Link>
    </Empty>,
  );
  if (gate || !tenant.data) return gate;
  const t = tenant.data;
  return (
    <>
      <PageHead
        title={t.name}
        action={
          <>
            {canWriteTenant && t.status !== "offboarded" && !editing && (
              <>
                <button onClick={() => setEditing("settings")}>{tr("detail.edit")}</button>{" "}
                <button className="danger" onClick={() => setEditing("offboard")}>
                  {tr("detail.offboard")}
                </button>{" "}
              </>
            )}
            <Link className="button" href={`/usage?tenant=${t.id}`}>
              {tr("detail.usage")}
            </Link>
          </>
        }
      >
        <code>{t.slug}</code> · {t.kvkk ? <span className="badge badge-kvkk">{tr("list.turkeyOnlyContract")}</span> : tr("detail.served")} · {tr("detail.plan", { plan: t.pricePlan?.name ?? tr("detail.none") })} ·{" "}
        <span className={`badge ${t.status === "active" ? "badge-ok" : "badge-danger"}`}>{tr(`statuses.${t.status}`)}</span>
        {t.specialCategory && (
          <>
            {" · "}
            <span className="badge badge-kvkk">{ts("badge", { category: ts(`categories.${t.specialCategory}`) })}</span>
          </>
        )}
        {t.offboardedAt && <> {tr("detail.since", { date: fmt.date(t.offboardedAt) })}</>}
        <br />
        {tr("detail.limits")} <LimitsSummary t={t} />
      </PageHead>
      {editing === "settings" && <TenantSettingsForm t={t} onDone={() => setEditing(null)} />}
      {editing === "offboard" && <OffboardForm t={t} onDone={() => setEditing(null)} />}
      {canReadKeys && <ApiKeysPanel tenantId={t.id} canWrite={canWriteKeys} chooseTenant={false} />}
    </>
  );
}
