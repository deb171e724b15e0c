"use client";

import { Fragment, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { PageHead } from "@/components/ui/page-head";
import { RowToggle } from "@/components/ui/row-toggle";

export function AuditPage() {
  const trpc = useTRPC();
  const t = useTranslations("audit");
  const fmt = useFormat();
  const [filter, setFilter] = useState({ action: "", actorEmail: "" });
  const [applied, setApplied] = useState(filter);
  const [open, setOpen] = useState<string | null>(null);
  const events = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions({ limit: 50, action: applied.action || null, actorEmail: applied.actorEmail || null }, { ...PANEL_QUERY, getNextPageParam: (p) => p.nextCursor }),
  );
  const rows = events.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <PageHead title={t("title")}>{t("intro")}</PageHead>
      <form
        className="panel actions"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filter);
        }}
      >
        <input aria-label={t("actionAria")} placeholder={t("actionPlaceholder")} value={filter.action} onChange={(e) => setFilter({ ...filter, action: e.target.value })} />
        <input aria-label={t("actor")} placeholder={t("actor")} value={filter.actorEmail} onChange={(e) => setFilter({ ...filter, actorEmail: e.target.value })} />
        <button type="submit">{t("filter")}</button>
      </form>
      <div className="panel">
        <QueryState query={events} what={t("loading")} isEmpty={() => !rows.length} empty={<Empty title={t("emptyTitle")}>{t("emptyHint")}</Empty>}>
          {() => (
            <table>
              <thead>
                <tr>
                  <th>{t("when")}</th>
                  <th>{t("who")}</th>
                  <th>{t("action")}</th>
                  <th>{t("target")}</th>
                  <th>{t("ip")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <Fragment key={r.id}>
                    <tr onClick={() => setOpen(open === r.id ? null : r.id)} style={{ cursor: "pointer" }}>
                      <td>
                        <RowToggle open={open === r.id} onToggle={() => setOpen(open === r.id ? null : r.id)} label={t("openEvent", { action: r.action })}>
                          {fmt.dateTime(r.at)}
                        </RowToggle>
                      </td>
                      <td>{r.actorEmail ?? <span className="muted">{t("system")}</span>}</td>
                      <td>
                        <code>{r.action}</code>
                      </td>
                      <td>
                        {r.targetType} <span className="muted mono">{r.targetId}</span>
                      </td>
                      <td className="mono">{r.ip ?? "—"}</td>
                    </tr>
                    {open === r.id && (
                      <tr>
                        <td colSpan={5}>
                          <div className="grid-2">
                            <div>
                              <b>{t("before")}</b>
                              <pre className="mono">{r.before ? JSON.stringify(r.before, null, 2) : "—"}</pre>
                            </div>
                            <div>
                              <b>{t("after")}</b>
                              <pre className="mono">{r.after ? JSON.stringify(r.after, null, 2) : "—"}</pre>
                            </div>
                          </div>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
        {events.hasNextPage && (
          <div className="actions" style={{ marginTop: 12 }}>
            <button onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
              {t("older")}
            </button>
          </div>
        )}
      </div>
    </>
  );
}
