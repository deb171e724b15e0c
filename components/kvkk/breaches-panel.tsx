"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { useToast } from "@/components/ui/toast";
import { Empty, Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";

/** Breach incidents with the 72-hour clock to the Board (KVKK Art. 12(5), Board decision 2019/10). */
export function BreachesPanel({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery(trpc.kvkk.breaches.list.queryOptions());
  const [openId, setOpenId] = useState<string | null>(null);
  const detail = useQuery({ ...trpc.kvkk.breaches.get.queryOptions({ id: openId ?? "" }), enabled: !!openId });
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.kvkk.breaches.list.queryKey() });
  const create = useMutation(trpc.kvkk.breaches.create.mutationOptions({ onSuccess: () => (toast.success("Incident recorded: the 72-hour clock runs from the awareness time"), refresh()), onError: (e) => toast.error(e.message) }));
  const update = useMutation(trpc.kvkk.breaches.update.mutationOptions({ onSuccess: () => (toast.success("Incident updated"), refresh()), onError: (e) => toast.error(e.message) }));
  const running = list.data?.filter((b) => b.status === "open") ?? [];
  return (
    <section className="panel" aria-label="Breaches">
      <h2>Personal-data breaches (KVKK Art. 12(5))</h2>
      <p className="muted">The Board is notified within 72 hours of becoming aware (Board decision 2019/10); each affected controller (tenant) and, through it, the data subjects as soon as possible. A failed chain check and calls abroad without a safeguard open an incident by themselves.</p>
      {running.length > 0 && (
        <p className="error" role="alert" aria-label="Open breaches">
          {running.map((b) => `${b.title}: ${b.late ? "the 72 hours have passed" : `${b.hoursLeft} h left to notify the Board`}`).join(" · ")}
        </p>
      )}
      {list.isPending ? (
        <Loading what="incidents" />
      ) : !list.data?.length ? (
        <Empty title="No incidents recorded">{canWrite ? " Record one below when you learn of a breach; the detectors record theirs." : ""}</Empty>
      ) : (
        <table aria-label="Incidents">
          <thead>
            <tr>
              <th>Aware</th>
              <th>Incident</th>
              <th>Found by</th>
              <th>Board due</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.map((b) => (
              <tr key={b.id}>
                <td>{formatDateTime(b.awareAt)}</td>
                <td>{b.title}</td>
                <td>{b.detector}</td>
                <td className={b.late ? "error" : undefined}>{b.boardNotifiedAt ? `notified ${formatDateTime(b.boardNotifiedAt)}` : formatDateTime(b.boardDueAt)}</td>
                <td>{b.status}</td>
                <td className="actions">
                  <button onClick={() => setOpenId(openId === b.id ? null : b.id)}>{openId === b.id ? "Close" : "Affected and notices"}</button>
                  {canWrite && !b.boardNotifiedAt && (
                    <button onClick={() => confirm("Record that the Board was notified now?") && update.mutate({ id: b.id, expectedUpdatedAt: b.updatedAt, title: b.title, description: b.description, status: "board_notified", boardNotifiedAt: new Date() })}>Board notified</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {openId && detail.data && (
        <div aria-label="Incident detail">
          <h3>Affected tenants (from the call log of the period)</h3>
          {!detail.data.affected.length ? (
            <p className="muted">No calls in the incident&apos;s period{detail.data.incident.occurredFrom ? "" : ": set when it happened to find the affected tenants"}.</p>
          ) : (
            <ul>
              {detail.data.affected.map((x) => (
                <li key={x.tenantId}>
                  {x.tenantSlug}: {x.calls} calls, {x.subjects} identified end users
                </li>
              ))}
            </ul>
          )}
          {detail.data.notices.map((n) => (
            <details key={n.tenantId}>
              <summary>Notice draft for {n.tenantId}</summary>
              <pre style={{ whiteSpace: "pre-wrap" }}>{n.text}</pre>
            </details>
          ))}
        </div>
      )}
      {canWrite && (
        <button
          onClick={() => {
            const title = prompt("What happened, in a line?");
            if (!title) return;
            const description = prompt("How it happened (the Board's form asks)") ?? "";
            const aware = prompt("When did you become aware? (YYYY-MM-DD HH:MM, Turkish time; empty: now)");
            create.mutate({ title, description, awareAt: aware ? new Date(`${aware.replace(" ", "T")}:00+03:00`) : new Date() });
          }}
        >
          Record a breach
        </button>
      )}
    </section>
  );
}
