"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { PageHead } from "@/components/ui/page-head";
import { LimitsSummary, OffboardForm, TenantSettingsForm } from "./tenant-settings";

export function TenantDetail({ id, canReadKeys, canWriteKeys, canWriteTenant }: { id: string; canReadKeys: boolean; canWriteKeys: boolean; canWriteTenant: boolean }) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState<"settings" | "offboard" | null>(null);
  const tenant = useQuery(trpc.tenant.get.queryOptions({ id }, PANEL_QUERY));
  const gate = queryGate(
    tenant,
    "the tenant",
    <Empty title="Tenant not found">
      <Link href="/tenants">Back to tenants</Link>
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
                <button onClick={() => setEditing("settings")}>Edit limits and plan</button>{" "}
                <button className="danger" onClick={() => setEditing("offboard")}>
                  Offboard…
                </button>{" "}
              </>
            )}
            <Link className="button" href={`/usage?tenant=${t.id}`}>
              Usage and cost, as the tenant sees them
            </Link>
          </>
        }
      >
        <code>{t.slug}</code> · {t.kvkk ? <span className="badge badge-kvkk">Turkey only (contract)</span> : "served in Turkey; abroad only under a recorded safeguard (KVKK Art. 9)"} · plan {t.pricePlan?.name ?? "none"} ·{" "}
        <span className={`badge ${t.status === "active" ? "badge-ok" : "badge-danger"}`}>{t.status}</span>
        {t.offboardedAt && <> since {new Date(t.offboardedAt).toISOString().slice(0, 10)}: its keys are revoked and its users cannot sign in; its call log is kept for its retention period</>}
        <br />
        Limits: <LimitsSummary t={t} />
      </PageHead>
      {editing === "settings" && <TenantSettingsForm t={t} onDone={() => setEditing(null)} />}
      {editing === "offboard" && <OffboardForm t={t} onDone={() => setEditing(null)} />}
      {canReadKeys && <ApiKeysPanel tenantId={t.id} canWrite={canWriteKeys} chooseTenant={false} />}
    </>
  );
}
