"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, queryGate } from "@/components/ui/query-state";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { PageHead } from "@/components/ui/page-head";

export function TenantDetail({ id, canReadKeys, canWriteKeys }: { id: string; canReadKeys: boolean; canWriteKeys: boolean }) {
  const trpc = useTRPC();
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
          <Link className="button" href={`/usage?tenant=${t.id}`}>
            Usage and cost, as the tenant sees them
          </Link>
        }
      >
        <code>{t.slug}</code> · {t.kvkk ? <span className="badge badge-kvkk">Turkey only (contract)</span> : "served in Turkey; abroad only under a recorded safeguard (KVKK Art. 9)"} · plan {t.pricePlan?.name ?? "none"} ·{" "}
        <span className="badge">{t.status}</span>
      </PageHead>
      {canReadKeys && <ApiKeysPanel tenantId={t.id} canWrite={canWriteKeys} chooseTenant={false} />}
    </>
  );
}
