"use client";

import { Fragment, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Loading } from "@/components/ui/field";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { emptyDraft, FilterForm, toFilter } from "./filter-form";
import { CallDetail } from "./call-detail";
import { ExportPanel } from "./export-panel";
import { VerifyPanel } from "./verify-panel";
import { RowToggle } from "@/components/ui/row-toggle";
import { useClientIpText } from "./client-ip";

/** Who called which model version, when, from where: never the prompt. Staff see every tenant, a tenant its own. */
export function CallLogPage({ staff, canVerify, ipsMasked }: { staff: boolean; canVerify: boolean; ipsMasked: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("callLog.page");
  const fmt = useFormat();
  const ipText = useClientIpText();
  const [filter, setFilter] = useState(() => toFilter(emptyDraft()));
  const [open, setOpen] = useState<string | null>(null);
  const [unmaskReason, setUnmaskReason] = useState<string | undefined>(undefined);
  const calls = useInfiniteQuery(trpc.callLog.list.infiniteQueryOptions({ ...filter, unmaskReason, limit: 50 }, { getNextPageParam: (p) => p.nextCursor }));
  const rows = calls.data?.pages.flatMap((p) => p.items) ?? [];
  const fieldErrors = (calls.error as { data?: { fieldErrors?: Record<string, string[]> } } | null)?.data?.fieldErrors ?? null;
  return (
    <>
      <PageHead title={t("title")}>
        {t("intro")}
        {staff && ` ${t("staffNote")}`}
      </PageHead>
      <FilterForm
        staff={staff}
        ipsMasked={ipsMasked}
        fieldErrors={fieldErrors}
        onApply={(d) => {
          setFilter(toFilter(d));
          setUnmaskReason(d.unmaskReason.trim() || undefined);
        }}
      />
      {canVerify && <VerifyPanel />}
      <ExportPanel filter={filter} />
      <div className="panel">
        {calls.isPending ? (
          <Loading what={t("loading")} />
        ) : calls.isError ? (
          <p className="error">{calls.error.message}</p>
        ) : !rows.length ? (
          <Empty title={t("emptyTitle")}>{t("emptyHint")}</Empty>
        ) : (
          <table aria-label={t("tableAria")}>
            <thead>
              <tr>
                <th>{t("started")}</th>
                {staff && <th>{t("tenant")}</th>}
                <th>{t("endpoint")}</th>
                <th>{t("version")}</th>
                <th>{t("status")}</th>
                <th>{t("tokens")}</th>
                <th>{t("region")}</th>
                <th>{t("clientIp")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Fragment key={r.requestId}>
                  <tr onClick={() => setOpen(open === r.requestId ? null : r.requestId)} style={{ cursor: "pointer" }}>
                    <td>
                      <RowToggle open={open === r.requestId} onToggle={() => setOpen(open === r.requestId ? null : r.requestId)} label={t("openCall", { time: fmt.dateTime(r.startedAt) })}>
                        {fmt.dateTime(r.startedAt)}
                      </RowToggle>
                    </td>
                    {staff && <td>{r.tenantSlug}</td>}
                    <td>{r.endpointSlug ?? <span className="muted mono">{r.endpointId ?? "—"}</span>}</td>
                    <td>{r.versionLabel ?? "—"}</td>
                    <td>
                      <span className={`badge ${r.status < 400 ? "badge-ok" : "badge-danger"}`}>{r.status}</span>
                    </td>
                    <td>
                      {fmt.number(r.promptTokens)} / {fmt.number(r.completionTokens)}
                    </td>
                    <td>{r.region ?? "—"}</td>
                    <td className="mono">{ipText(r) ?? "—"}</td>
                  </tr>
                  {open === r.requestId && (
                    <tr>
                      <td colSpan={staff ? 8 : 7}>
                        <CallDetail requestId={r.requestId} unmaskReason={unmaskReason} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
        {calls.hasNextPage && (
          <div className="actions" style={{ marginTop: 12 }}>
            <button onClick={() => void calls.fetchNextPage()} disabled={calls.isFetchingNextPage}>
              {t("older")}
            </button>
          </div>
        )}
      </div>
    </>
  );
}
