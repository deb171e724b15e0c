"use client";

import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "use-intl";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/components/trpc/client";
import { Empty, Loading } from "@/components/ui/field";
import { useFormat } from "@/components/i18n/use-format";
import { costRows, tokenRows, usageRows } from "./adapters";
import { BudgetCard } from "./budget-card";
import { RefusalsPanel } from "./refusals-panel";
import { CostBySplit } from "./cost-by-split";
import { PeriodSelect, type Period } from "./period-select";
import { Invoices, StaffPicker } from "./invoices";
import { FocusDownload } from "./focus-download";
import { CostParts } from "./cost-parts";
import { PageHead } from "@/components/ui/page-head";

const COLORS = ["#1f5fbf", "#e08a00", "#2e9d5b", "#a23fbf", "#c0392b", "#5d6878", "#0f8a8a"];

const tickTime = (bucket: string) => (t: number) => (bucket === "hour" ? new Date(t).toISOString().slice(11, 16) : new Date(t).toISOString().slice(5, 10));

/**
 * The tenant's portal: what it used, what it cost, whether it got the service it pays for, and its
 * budget. Staff open it for any tenant (`?tenant=`) and see exactly what the tenant sees.
 */
export function UsagePage({ tenantId, canSetBudget, staff }: { tenantId?: string; canSetBudget: boolean; staff: boolean }) {
  const trpc = useTRPC();
  const t = useTranslations("usage");
  const fmt = useFormat();
  const [days, setDays] = useState<Period>(30);
  const [by, setBy] = useState<"endpoint" | "key" | "model" | "class">("endpoint");
  const usage = useQuery(trpc.usage.tenant.queryOptions({ tenantId, days, by }, { refetchInterval: 15_000, enabled: !staff || !!tenantId }));
  if (staff && !tenantId) return <StaffPicker />;
  if (usage.isPending) return <Loading what={t("page.loading")} />;
  if (usage.error) return <Empty title={t("page.unavailable")}>{usage.error.message}</Empty>;
  const u = usage.data;
  const cur = u.tenant.currency;
  const money = (v: string | number) => fmt.money(Number(v), cur);
  const ms = (v: number | null) => (v === null ? "—" : v >= 1000 ? `${fmt.number(v / 1000, 2)} s` : `${fmt.number(Math.round(v))} ms`);
  const pct = (v: number | null, digits = 2) => (v === null ? "—" : fmt.percent(v / 100, digits));
  const bucketLabel = (x: unknown) => (u.bucket === "hour" ? fmt.dateTime(Number(x)) : fmt.date(Number(x)));
  const axis = (v: number) => fmt.number(v);
  return (
    <>
      <PageHead
        title={staff ? t("page.titleStaff", { tenant: u.tenant.name }) : t("page.title")}
        action={
          <div className="actions">
            <PeriodSelect value={days} onChange={setDays} />
            <select aria-label={t("page.splitBy")} value={by} onChange={(e) => setBy(e.target.value as typeof by)}>
              <option value="endpoint">{t("page.by.endpoint")}</option>
              <option value="model">{t("page.by.model")}</option>
              <option value="class">{t("page.by.class")}</option>
              <option value="key">{t("page.by.key")}</option>
            </select>
          </div>
        }
      >
        {t("page.plan", { tenant: u.tenant.name, plan: u.tenant.plan ?? t("page.none") })} {u.tenant.kvkk && <span className="badge badge-kvkk">{t("page.turkeyOnly")}</span>} · {staff ? t("page.asTenantSees") : t("page.yourCalls")}
      </PageHead>
      <div className="stats">
        <div className="stat">
          <b data-testid="total-requests">{fmt.number(u.totals.requests)}</b>
          <span>{t("page.requests")}</span>
        </div>
        <div className="stat">
          <b>{fmt.number(u.totals.inputTokens)}</b>
          <span>{t("page.inputTokens")}</span>
        </div>
        <div className="stat">
          <b>{fmt.number(u.totals.outputTokens)}</b>
          <span>{t("page.outputTokens")}</span>
        </div>
        <div className="stat">
          <b data-testid="total-charged">{money(u.totals.charged)}</b>
          <span>{t("page.charged")}</span>
        </div>
        <div className="stat">
          <b>{u.totals.costPer1MTokens ? money(u.totals.costPer1MTokens) : "—"}</b>
          <span>{t("page.per1M")}</span>
        </div>
      </div>
      <BudgetCard tenantId={staff ? u.tenant.id : undefined} budget={u.budget} canSet={canSetBudget} />
      <RefusalsPanel refusals={u.refusals} days={days} />
      {u.series.length === 0 ? (
        <div className="panel">
          <Empty title={t("page.emptyTitle")}>{t.rich(staff ? "page.emptyStaff" : "page.emptyOwn", { link: (c) => <Link href="/api-keys">{c}</Link> })}</Empty>
        </div>
      ) : (
        <div className="grid-2">
          <ChartPanel title={t(`charts.requests.${by}`)}>
            <BarChart data={usageRows(u.series, u.seriesKeys, "requests")}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="t" tickFormatter={tickTime(u.bucket)} tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={48} tickFormatter={axis} />
              <Tooltip labelFormatter={bucketLabel} formatter={(v) => fmt.number(Number(v))} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {u.seriesKeys.map((k, i) => (
                <Bar key={k} dataKey={k} stackId="a" fill={COLORS[i % COLORS.length]} />
              ))}
            </BarChart>
          </ChartPanel>
          <ChartPanel title={t("charts.tokens")}>
            <BarChart data={tokenRows(u.series)}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="t" tickFormatter={tickTime(u.bucket)} tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={56} tickFormatter={axis} />
              <Tooltip formatter={(v) => t("charts.tokensValue", { count: fmt.number(Number(v)) })} labelFormatter={(x) => fmt.dateTime(Number(x))} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="input" name={t("charts.input")} stackId="t" fill="#1f5fbf" />
              <Bar dataKey="output" name={t("charts.output")} stackId="t" fill="#2e9d5b" />
            </BarChart>
          </ChartPanel>
          <ChartPanel title={t("charts.costByDay", { currency: cur })}>
            <BarChart data={costRows(u.costByDay)}>
              <CartesianGrid stroke="#eef1f5" vertical={false} />
              <XAxis dataKey="day" tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={56} tickFormatter={axis} />
              <Tooltip formatter={(v) => money(Number(v))} />
              <Bar dataKey="amount" name={t("charts.charged")} fill="#a23fbf" />
            </BarChart>
          </ChartPanel>
        </div>
      )}
      <CostBySplit by={by} rows={u.costBySplit} money={money} />
      <div className="panel">
        <h2>{t("endpoints.title")}</h2>
        {u.endpoints.length === 0 ? (
          <p className="muted">{t("endpoints.none")}</p>
        ) : (
          <table data-testid="cost-table">
            <thead>
              <tr>
                <th>{t("endpoints.endpoint")}</th>
                <th>{t("endpoints.requests")}</th>
                <th>{t("endpoints.tokens")}</th>
                <th>{t("endpoints.charged")}</th>
                <th>{t("endpoints.per1M")}</th>
                <th>{t("endpoints.latency")}</th>
                <th>{t("endpoints.ttft")}</th>
                <th>{t("endpoints.errors")}</th>
                <th>{t("endpoints.availability")}</th>
                <th>{t("endpoints.sla")}</th>
              </tr>
            </thead>
            <tbody>
              {u.endpoints.map((e) => (
                <tr key={e.endpointId}>
                  <td>{e.name}</td>
                  <td>{fmt.number(e.requests)}</td>
                  <td>
                    {fmt.number(e.inputTokens)} / {fmt.number(e.outputTokens)}
                  </td>
                  <td>{money(e.charged)}</td>
                  <td>{e.costPer1MTokens ? money(e.costPer1MTokens) : "—"}</td>
                  <td>
                    {ms(e.sla.p50Ms)} / {ms(e.sla.p95Ms)} / <b>{ms(e.sla.p99Ms)}</b>
                    {e.sla.slo && <div className="muted">{t("endpoints.sloP99", { value: ms(e.sla.slo.p99LatencyMs) })}</div>}
                  </td>
                  <td>
                    {ms(e.sla.ttftAvgMs)} / {ms(e.sla.ttftP95Ms)}
                    {e.sla.slo?.ttftMs && <div className="muted">{t("endpoints.sloTtft", { value: ms(e.sla.slo.ttftMs) })}</div>}
                  </td>
                  <td>{pct(e.sla.errorRatePct)}</td>
                  <td>
                    {pct(e.sla.availabilityPct, 3)}
                    {e.sla.slo && <div className="muted">{t("endpoints.sloAvailability", { value: pct(e.sla.slo.availabilityPct, 3) })}</div>}
                  </td>
                  <td>{e.sla.met === null ? "—" : e.sla.met ? <span className="badge badge-ok">{t("endpoints.met")}</span> : <span className="badge badge-danger">{t("endpoints.missed")}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <Invoices tenantId={staff ? u.tenant.id : undefined} />
      <CostParts tenantId={u.tenant.id} />
      <FocusDownload tenantId={u.tenant.id} />
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
