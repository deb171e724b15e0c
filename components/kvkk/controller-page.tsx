"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { PageHead } from "@/components/ui/page-head";
import { Empty, Loading } from "@/components/ui/field";
import { formatDateTime } from "@/components/ui/format";
import { MECHANISMS } from "./safeguards-panel";

const month = (d: Date | string) => new Date(d).toISOString().slice(0, 7);
const ACTION = { "calllog.read": "opened one of your calls", "calllog.search": "searched the call log", "calllog.export": "exported the call log", "kvkk.subject.find": "looked for one of your end users" } as const;

/** The tenant as data controller: where Kule (the processor) served its calls, under which safeguards, and who of Kule's staff read its data. */
export function ControllerPage() {
  const trpc = useTRPC();
  const v = useQuery(trpc.kvkk.controller.queryOptions());
  if (v.isPending) return <Loading what="your data's record" />;
  if (v.isError) return <p className="error">{v.error.message}</p>;
  const { tenant, safeguards, residency, staffReads } = v.data;
  return (
    <>
      <PageHead title="Your data (KVKK)">
        {tenant.name} is the data controller of its end users&apos; data; Kule&apos;s operator processes it on your behalf (KVKK Art. 3, 12(2)). Your calls are served in Turkey{tenant.kvkk ? ", and your contract forbids any transfer abroad" : " unless a transfer safeguard below covers a country (KVKK Art. 9)"}.
      </PageHead>
      <section className="panel" aria-label="Your transfers abroad">
        <h2>Transfers abroad (KVKK Art. 9)</h2>
        {!safeguards.length ? (
          <Empty title="No safeguards: none of your calls may leave Turkey" />
        ) : (
          <ul>
            {safeguards.map((s) => (
              <li key={s.id}>
                {s.destination}: {MECHANISMS[s.mechanism]} with {s.importer} ({s.reference}), signed {formatDateTime(s.signedAt)}
                {s.revokedAt ? `, revoked ${formatDateTime(s.revokedAt)}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-label="Where your calls were served">
        <h2>Where your calls were served</h2>
        {!residency.length ? (
          <Empty title="No calls in the last three months" />
        ) : (
          <table aria-label="Your residency">
            <thead>
              <tr>
                <th>Month</th>
                <th>Region</th>
                <th>Calls</th>
              </tr>
            </thead>
            <tbody>
              {residency.map((c) => (
                <tr key={`${month(c.month)}-${c.region}`}>
                  <td>{month(c.month)}</td>
                  <td>{c.incident ? <span className="badge badge-danger">{c.region}: abroad without a safeguard</span> : c.region}</td>
                  <td>{c.calls.toLocaleString("en")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-label="Staff access to your data">
        <h2>Kule staff&apos;s access to your data (last 90 days)</h2>
        {!staffReads.length ? (
          <Empty title="No staff member read your call log" />
        ) : (
          <table aria-label="Staff reads">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>What</th>
              </tr>
            </thead>
            <tbody>
              {staffReads.map((r, i) => (
                <tr key={i}>
                  <td>{formatDateTime(r.at)}</td>
                  <td>
                    {r.actorEmail} ({r.role})
                  </td>
                  <td>
                    {ACTION[r.action as keyof typeof ACTION] ?? r.action}
                    {r.targetId && r.action === "calllog.read" ? `: ${r.targetId}` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
