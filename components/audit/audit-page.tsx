"use client";

import { Fragment, useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { Empty } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { formatDateTime } from "@/components/ui/format";
import { PageHead } from "@/components/ui/page-head";

export function AuditPage() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState({ action: "", actorEmail: "" });
  const [applied, setApplied] = useState(filter);
  const [open, setOpen] = useState<string | null>(null);
  const events = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions({ limit: 50, action: applied.action || null, actorEmail: applied.actorEmail || null }, { ...PANEL_QUERY, getNextPageParam: (p) => p.nextCursor }),
  );
  const rows = events.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <PageHead title="Audit log">Every change anyone made, with what it was before and after.</PageHead>
      <form
        className="panel actions"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filter);
        }}
      >
        <input aria-label="Action starts with" placeholder="Action, like endpoint." value={filter.action} onChange={(e) => setFilter({ ...filter, action: e.target.value })} />
        <input aria-label="Actor e-mail" placeholder="Actor e-mail" value={filter.actorEmail} onChange={(e) => setFilter({ ...filter, actorEmail: e.target.value })} />
        <button type="submit">Filter</button>
      </form>
      <div className="panel">
        <QueryState query={events} what="audit events" isEmpty={() => !rows.length} empty={<Empty title="No audit events match">Changes made by operators and admins appear here.</Empty>}>
          {() => (
            <table>
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>Target</th>
                  <th>IP</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <Fragment key={r.id}>
                    <tr onClick={() => setOpen(open === r.id ? null : r.id)} style={{ cursor: "pointer" }}>
                      <td>{formatDateTime(r.at)}</td>
                      <td>{r.actorEmail ?? <span className="muted">system</span>}</td>
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
                              <b>Before</b>
                              <pre className="mono">{r.before ? JSON.stringify(r.before, null, 2) : "—"}</pre>
                            </div>
                            <div>
                              <b>After</b>
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
              Older events
            </button>
          </div>
        )}
      </div>
    </>
  );
}
