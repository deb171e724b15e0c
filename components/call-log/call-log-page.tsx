"use client";

import { Fragment, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";
import { emptyDraft, FilterForm, toFilter } from "./filter-form";
import { CallDetail } from "./call-detail";
import { ExportPanel } from "./export-panel";
import { VerifyPanel } from "./verify-panel";

/** Who called which model version, when, from where: never the prompt. Staff see every tenant, a tenant its own. */
export function CallLogPage({ staff, canVerify }: { staff: boolean; canVerify: boolean }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState(() => toFilter(emptyDraft()));
  const [open, setOpen] = useState<string | null>(null);
  const calls = useInfiniteQuery(trpc.callLog.list.infiniteQueryOptions({ ...filter, limit: 50 }, { getNextPageParam: (p) => p.nextCursor }));
  const rows = calls.data?.pages.flatMap((p) => p.items) ?? [];
  const fieldErrors = (calls.error as { data?: { fieldErrors?: Record<string, string[]> } } | null)?.data?.fieldErrors ?? null;
  return (
    <>
      <PageHead title="Call log">
        One row per gateway request: who called which model version, when, from where, the status and the tokens. Never the prompt or the answer.
        {staff && " Your searches are recorded in the audit log."}
      </PageHead>
      <FilterForm staff={staff} fieldErrors={fieldErrors} onApply={(d) => setFilter(toFilter(d))} />
      {canVerify && <VerifyPanel />}
      <ExportPanel filter={filter} />
      <div className="panel">
        {calls.isPending ? (
          <Loading what="calls" />
        ) : calls.isError ? (
          <p className="error">{calls.error.message}</p>
        ) : !rows.length ? (
          <Empty title="No calls match">Widen the time range or clear a filter.</Empty>
        ) : (
          <table aria-label="Calls">
            <thead>
              <tr>
                <th>Started (UTC)</th>
                {staff && <th>Tenant</th>}
                <th>Endpoint</th>
                <th>Version</th>
                <th>Status</th>
                <th>Tokens in / out</th>
                <th>Region</th>
                <th>Client IP</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Fragment key={r.requestId}>
                  <tr onClick={() => setOpen(open === r.requestId ? null : r.requestId)} style={{ cursor: "pointer" }} aria-expanded={open === r.requestId}>
                    <td>{formatDateTime(r.startedAt)}</td>
                    {staff && <td>{r.tenantSlug}</td>}
                    <td>{r.endpointSlug ?? <span className="muted mono">{r.endpointId ?? "—"}</span>}</td>
                    <td>{r.versionLabel ?? "—"}</td>
                    <td>
                      <span className={`badge ${r.status < 400 ? "badge-ok" : "badge-danger"}`}>{r.status}</span>
                    </td>
                    <td>
                      {r.promptTokens} / {r.completionTokens}
                    </td>
                    <td>{r.region ?? "—"}</td>
                    <td className="mono">{r.clientIp ?? "—"}</td>
                  </tr>
                  {open === r.requestId && (
                    <tr>
                      <td colSpan={staff ? 8 : 7}>
                        <CallDetail requestId={r.requestId} />
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
              Older calls
            </button>
          </div>
        )}
      </div>
    </>
  );
}
