"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/components/trpc/client";
import { Empty, Loading } from "@/components/ui/field";
import { costRows, formatMoney, recentMonths, tokenRows, usageRows } from "./adapters";
import { BudgetCard } from "./budget-card";
import { RefusalsPanel } from "./refusals-panel";
import { PeriodSelect, type Period } from "./period-select";
import { PageHead } from "@/components/ui/page-head";

const COLORS = ["#1f5fbf", "#e08a00", "#2e9d5b", "#a23fbf", "#c0392b", "#5d6878", "#0f8a8a"];

const tickTime = (bucket: string) => (t: number) => (bucket === "hour" ? new Date(t).toISOString().slice(11, 16) : new Date(t).toISOString().slice(5, 10));
const ms = (v: number | null) => (v === null ? "—" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
const pct = (v: number | null, digits = 2) => (v === null ? "—" : `${v.toFixed(digits)}%`);

/**
 * The tenant's portal: what it used, what it cost, whether it got the service it pays for, and its
 * budget. Staff open it for any tenant (`?tenant=`) and see exactly what the tenant sees.
 */
export function UsagePage({ tenantId, canSetBudget, staff }: { tenantId?: string; canSetBudget: boolean; staff: boolean }) {
  const trpc = useTRPC();
  const [days, setDays] = useState<Period>(30);
  const [by, setBy] = useState<"endpoint" | "key" | "model">("endpoint");
  const usage = useQuery(trpc.usage.tenant.queryOptions({ tenantId, days, by }, { refetchInterval: 15_000, enabled: !staff || !!tenantId }));
  if (staff && !tenantId) return <StaffPicker />;
  if (usage.isPending) return <Loading what="usage" />;
  if (usage.error) return <Empty title="Usage is not available">{usage.error.message}</Empty>;
  const u = usage.data;
  const cur = u.tenant.currency;
  return (
    <>
      <PageHead
        title={`Usage and cost${staff ? `: ${u.tenant.name}` : ""}`}
        action={
          <div className="actions">
            <PeriodSelect value={days} onChange={setDays} />
            <select aria-label="Split by" value={by} onChange={(e) => setBy(e.target.value as typeof by)}>
              <option value="endpoint">by endpoint</option>
              <option value="model">by model</option>
              <option value="key">by API key</option>
            </select>
          </div>
        }
      >
        {u.tenant.name} · plan {u.tenant.plan ?? "none"} {u.tenant.kvkk && <span className="badge badge-kvkk">Turkey only</span>} · {staff ? "as the tenant sees it" : "your calls through the Kule gateway"}
      </PageHead>
      <div className="stats">
        <div className="stat">
          <b data-testid="total-requests">{u.totals.requests.toLocaleString("tr-TR")}</b>
          <span>requests</span>
        </div>
        <div className="stat">
          <b>{u.totals.inputTokens.toLocaleString("tr-TR")}</b>
          <span>input tokens</span>
        </div>
        <div className="stat">
          <b>{u.totals.outputTokens.toLocaleString("tr-TR")}</b>
          <span>output tokens</span>
        </div>
        <div className="stat">
          <b data-testid="total-charged">{formatMoney(u.totals.charged, cur)}</b>
          <span>charged</span>
        </div>
        <div className="stat">
          <b>{u.totals.costPer1MTokens ? formatMoney(u.totals.costPer1MTokens, cur) : "—"}</b>
          <span>per 1M tokens</span>
        </div>
      </div>
      <BudgetCard tenantId={staff ? u.tenant.id : undefined} budget={u.budget} canSet={canSetBudget} />
      <RefusalsPanel refusals={u.refusals} days={days} />
      {u.series.length === 0 ? (
        <div className="panel">
          <Empty title="No calls in this period">
            Calls made with {staff ? "this tenant's" : "your"} <Link href="/api-keys">API keys</Link> through the gateway show here within a minute.
          </Empty>
        </div>
      ) : (
        <div className="grid-2">
          <ChartPanel title={`Requests ${by === "key" ? "by key" : by === "model" ? "by model" : "by endpoint"}`}>
            <BarChart data={usageRows(u.series, u.seriesKeys, "requests")}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="t" tickFormatter={tickTime(u.bucket)} tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={48} />
              <Tooltip
                labelFormatter={(t) =>
                  new Date(Number(t))
                    .toISOString()
                    .slice(0, u.bucket === "hour" ? 16 : 10)
                    .replace("T", " ")
                }
              />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {u.seriesKeys.map((k, i) => (
                <Bar key={k} dataKey={k} stackId="a" fill={COLORS[i % COLORS.length]} />
              ))}
            </BarChart>
          </ChartPanel>
          <ChartPanel title="Tokens in and out">
            <BarChart data={tokenRows(u.series)}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="t" tickFormatter={tickTime(u.bucket)} tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={56} />
              <Tooltip formatter={(v) => `${Number(v).toLocaleString("tr-TR")} tokens`} labelFormatter={(t) => new Date(Number(t)).toISOString().slice(0, 16).replace("T", " ")} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="input" name="input" stackId="t" fill="#1f5fbf" />
              <Bar dataKey="output" name="output" stackId="t" fill="#2e9d5b" />
            </BarChart>
          </ChartPanel>
          <ChartPanel title={`Cost by day (${cur})`}>
            <BarChart data={costRows(u.costByDay)}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="day" tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={56} />
              <Tooltip formatter={(v) => formatMoney(String(v), cur)} />
              <Bar dataKey="amount" name="charged" fill="#a23fbf" />
            </BarChart>
          </ChartPanel>
        </div>
      )}
      <div className="panel">
        <h2>Cost and service by endpoint</h2>
        {u.endpoints.length === 0 ? (
          <p className="muted">No calls in this period.</p>
        ) : (
          <table data-testid="cost-table">
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Requests</th>
                <th>Tokens in / out</th>
                <th>Charged</th>
                <th>Per 1M tokens</th>
                <th>P50 / P95 / P99</th>
                <th>TTFT (avg / p95)</th>
                <th>Errors</th>
                <th>Availability</th>
                <th>SLA</th>
              </tr>
            </thead>
            <tbody>
              {u.endpoints.map((e) => (
                <tr key={e.endpointId}>
                  <td>{e.name}</td>
                  <td>{e.requests.toLocaleString("tr-TR")}</td>
                  <td>
                    {e.inputTokens.toLocaleString("tr-TR")} / {e.outputTokens.toLocaleString("tr-TR")}
                  </td>
                  <td>{formatMoney(e.charged, cur)}</td>
                  <td>{e.costPer1MTokens ? formatMoney(e.costPer1MTokens, cur) : "—"}</td>
                  <td>
                    {ms(e.sla.p50Ms)} / {ms(e.sla.p95Ms)} / <b>{ms(e.sla.p99Ms)}</b>
                    {e.sla.slo && <div className="muted">SLO p99 ≤ {ms(e.sla.slo.p99LatencyMs)}</div>}
                  </td>
                  <td>
                    {ms(e.sla.ttftAvgMs)} / {ms(e.sla.ttftP95Ms)}
                    {e.sla.slo?.ttftMs && <div className="muted">SLO ≤ {ms(e.sla.slo.ttftMs)}</div>}
                  </td>
                  <td>{pct(e.sla.errorRatePct)}</td>
                  <td>
                    {pct(e.sla.availabilityPct, 3)}
                    {e.sla.slo && <div className="muted">SLO ≥ {e.sla.slo.availabilityPct}%</div>}
                  </td>
                  <td>{e.sla.met === null ? "—" : e.sla.met ? <span className="badge badge-ok">met</span> : <span className="badge badge-danger">missed</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <Invoices tenantId={staff ? u.tenant.id : undefined} />
    </>
  );
}

function ChartPanel({ title, children }: { title: string; children: React.ReactElement }) {
  return (
    <div className="panel" role="figure" aria-label={title}>
      <h2 style={{ fontSize: 14 }}>{title}</h2>
      <div style={{ height: 200 }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </div>
  );
}

function Invoices({ tenantId }: { tenantId?: string }) {
  const trpc = useTRPC();
  const months = recentMonths();
  const [month, setMonth] = useState(months[0]!);
  const invoice = useQuery({ ...trpc.usage.invoice.queryOptions({ tenantId, month }), enabled: false });
  const download = async () => {
    const r = await invoice.refetch();
    if (!r.data) return;
    const url = URL.createObjectURL(new Blob([r.data.csv], { type: "text/csv;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = r.data.filename;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="panel">
      <h2>Invoice lines</h2>
      <div className="actions">
        <select aria-label="Invoice month" value={month} onChange={(e) => setMonth(e.target.value)}>
          {months.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <button onClick={() => void download()} disabled={invoice.isFetching}>
          Download CSV
        </button>
        <span className="muted">One line per endpoint, charged at the prices in force when each call was made (UTF-8, opens in Excel).</span>
      </div>
      {invoice.error && <div className="form-error">{invoice.error.message}</div>}
    </div>
  );
}

function StaffPicker() {
  const trpc = useTRPC();
  const tenants = useQuery(trpc.tenant.list.queryOptions());
  return (
    <div className="panel">
      <h2>Usage and cost of a tenant</h2>
      <p className="muted">
        Choose a tenant to see its portal as it sees it, or open <Link href="/costs">Costs</Link> for every tenant ranked.
      </p>
      <ul>
        {tenants.data?.map((t) => (
          <li key={t.id}>
            <Link href={`/usage?tenant=${t.id}`}>{t.name}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
