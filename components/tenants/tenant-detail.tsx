"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Loading } from "@/components/ui/field";
import { ApiKeysPanel } from "@/components/keys/api-keys-panel";

export function TenantDetail({ id, canReadKeys, canWriteKeys }: { id: string; canReadKeys: boolean; canWriteKeys: boolean }) {
  const trpc = useTRPC();
  const tenant = useQuery(trpc.tenant.get.queryOptions({ id }));
  if (tenant.isPending) return <Loading what="the tenant" />;
  if (!tenant.data) return <div className="panel empty"><b>Tenant not found</b></div>;
  const t = tenant.data;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{t.name}</h1>
          <p>
            <code>{t.slug}</code> · {t.kvkk ? <span className="badge badge-kvkk">KVKK · Turkey only</span> : "may be served anywhere"} · plan{" "}
            {t.pricePlan?.name ?? "none"} · <span className="badge">{t.status}</span>
          </p>
        </div>
        <Link className="button" href={`/usage?tenant=${t.id}`}>
          Usage and cost, as the tenant sees them
        </Link>
      </div>
      {canReadKeys && <ApiKeysPanel tenantId={t.id} canWrite={canWriteKeys} chooseTenant={false} />}
    </>
  );
}
